// EliteDias's documented answers (tests/fixtures/elitedias/) read by the real client: what each call
// returns, and how each refusal is classified.

import assert from "node:assert/strict";
import {
  createElitediasClient,
  type ElitediasClient,
} from "../../src/integrations/elitedias/client.ts";
import type { SupplierResult } from "../../src/integrations/fetch-json.ts";
import { withRecordedAnswer } from "../helpers/recorded-answers.ts";

const API_KEY = "example_api_key";

function elitediasAt(url: string): ElitediasClient {
  return createElitediasClient({
    baseUrl: url,
    checkIdUrl: `${url}/checkid`,
    apiKey: API_KEY,
    origin: "https://shop.example",
    timeoutMs: 2_000,
  });
}

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

const TOPUP = {
  game: "mlbb",
  userid: "12314123",
  serverid: "3402",
  denom: "86 Diamonds",
  reference: "WF-ABC123",
};

Deno.test('[elitedias contract] games_available: the game codes of the "200" envelope', async () => {
  await withRecordedAnswer("elitedias", "games-available", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).gamesAvailable()), [
      "mlbb",
      "mlbb_global",
      "mlbb_special",
      "pubgm",
      "genshin",
      "honkai_star_rail",
      "hok",
    ]);
    assert.equal(requests[0].pathname, "/elitedias_games_available");
    assert.deepEqual(JSON.parse(requests[0].body), { api_key: API_KEY });
  });
});

Deno.test("[elitedias contract] denominations: a flat map whose number or string prices become exact text", async () => {
  await withRecordedAnswer("elitedias", "denominations", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).denominations("mlbb")), {
      "86 Diamonds": "1.52",
      "172 Diamonds": "3.03",
      "Weekly Diamond Pass": "1.38",
    });
    assert.deepEqual(JSON.parse(requests[0].body), { api_key: API_KEY, game: "mlbb" });
  });
  await withRecordedAnswer("elitedias", "denominations-string-prices", async ({ url }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).denominations("hok")), {
      "16 Tokens": "0.24",
      "80 Tokens": "1.15",
      "Weekly Card": "1.20",
    });
  });
});

Deno.test("[elitedias contract] game_fields: info.fields and info.notes", async () => {
  await withRecordedAnswer("elitedias", "game-fields", async ({ url }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).gameFields("mlbb")), {
      fields: ["userid", "serverid"],
      notes: "Not available for Indonesia users, Indonesian users can use mlbb_global/mlbb_indo",
    });
  });
});

Deno.test('[elitedias contract] reseller top-up: code "200" with status success gives the order_id', async () => {
  await withRecordedAnswer("elitedias", "topup-success", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).topup(TOPUP)), {
      orderId: "ED10000001",
      status: "success",
      message: "Order placed successfully",
    });
    assert.equal(requests[0].pathname, "/elitedias_reseller_topup_api");
    assert.deepEqual(JSON.parse(requests[0].body), { api_key: API_KEY, ...TOPUP });
  });
});

Deno.test('[elitedias contract] reseller top-up: a non-"200" code is a supplier error with its code', async () => {
  const cases = [
    ["topup-insufficient-balance", "403", "Insufficient balance"],
    ["topup-invalid-product", "400", "Invalid product"],
  ];
  for (const [name, code, message] of cases) {
    await withRecordedAnswer("elitedias", name, async ({ url }) => {
      assert.deepEqual(await elitediasAt(url).topup(TOPUP), {
        ok: false,
        kind: "supplier",
        message,
        code,
      }, name);
    });
  }
});

Deno.test("[elitedias contract] track_order: an order_status containing success is successful", async () => {
  await withRecordedAnswer("elitedias", "track-order-success", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).trackOrder("ED10000001")), {
      orderId: "ED10000001",
      status: "successful",
      supplierStatus: "success",
      price: "1.52",
      message: "success",
    });
    assert.deepEqual(JSON.parse(requests[0].body), { api_key: API_KEY, order_id: "ED10000001" });
  });
});

Deno.test("[elitedias contract] track_order: a pending answer without order_id or price is the order asked for", async () => {
  await withRecordedAnswer("elitedias", "track-order-pending", async ({ url }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).trackOrder("ED10000001")), {
      orderId: "ED10000001",
      status: "pending",
      supplierStatus: "pending",
      price: null,
      message: "pending",
    });
  });
});

Deno.test("[elitedias contract] checkid: valid with a name, invalid, error; no api_key sent", async () => {
  await withRecordedAnswer("elitedias", "checkid-valid", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).checkId("hok", "17167993430277182188")), {
      valid: "valid",
      name: "Ꭰarkness23",
    });
    assert.equal(requests[0].pathname, "/checkid");
    assert.deepEqual(JSON.parse(requests[0].body), {
      game: "hok",
      userid: "17167993430277182188",
    });
  });
  for (const verdict of ["invalid", "error"]) {
    await withRecordedAnswer("elitedias", `checkid-${verdict}`, async ({ url }) => {
      assert.deepEqual(valueOf(await elitediasAt(url).checkId("mlbb", "1", "2")), {
        valid: verdict,
      });
    });
  }
});

Deno.test("[elitedias contract] elitedias_api_balance: the reseller_balance number as exact text", async () => {
  await withRecordedAnswer("elitedias", "balance", async ({ url }) => {
    assert.equal(valueOf(await elitediasAt(url).balance()), "245.8");
  });
});
