// EliteDias's documented answers (tests/fixtures/elitedias/) read by the real client (what each
// call returns, how each refusal is classified), and the simulator answering in the same shapes.

import assert from "node:assert/strict";
import {
  createElitediasClient,
  type ElitediasClient,
} from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
  type ElitediasSimulator,
} from "../../src/integrations/elitedias/simulator.ts";
import type { SupplierResult } from "../../src/integrations/fetch-json.ts";
import {
  readRecordedAnswer,
  withRecordedAnswer,
  withRecordedAnswersByPath,
} from "../helpers/recorded-answers.ts";
import { assertSameWireShape, type WireShapeOptions } from "../helpers/wire-shape.ts";

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

Deno.test("[elitedias contract] games list: elitedias_games_data first, the game codes its `info` keys", async () => {
  await withRecordedAnswer("elitedias", "games-data", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).gamesAvailable()), [
      "mlbb",
      "mlbb_global",
      "pubgm",
      "genshin",
      "hok",
    ]);
    assert.deepEqual(requests.map((r) => r.pathname), ["/elitedias_games_data"]);
    assert.deepEqual(JSON.parse(requests[0].body), { api_key: API_KEY });
  });
  await withRecordedAnswer("elitedias", "games-data-under-data", async ({ url }) => {
    assert.deepEqual(valueOf(await elitediasAt(url).gamesAvailable()), ["mlbb", "hok"]);
  });
});

Deno.test("[elitedias contract] games list: where elitedias_games_data is not found, elitedias_games_available's codes", async () => {
  await withRecordedAnswersByPath(
    "elitedias",
    { "/elitedias_games_available": "games-available" },
    async ({ url, requests }) => {
      assert.deepEqual(valueOf(await elitediasAt(url).gamesAvailable()), [
        "mlbb",
        "mlbb_global",
        "mlbb_special",
        "pubgm",
        "genshin",
        "honkai_star_rail",
        "hok",
      ]);
      assert.deepEqual(requests.map((r) => r.pathname), [
        "/elitedias_games_data",
        "/elitedias_games_available",
      ]);
      assert.deepEqual(JSON.parse(requests[1].body), { api_key: API_KEY });
    },
  );
});

Deno.test("[elitedias contract] games list: a 429 from elitedias_games_data is reported, not hidden by the older list", async () => {
  await withRecordedAnswer("elitedias", "topup-rate-limited", async ({ url, requests }) => {
    const result = await elitediasAt(url).gamesAvailable();
    assert.equal(!result.ok && result.kind, "throttled");
    assert.equal(requests.length, 1);
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
    ["topup-missing-attributes", "400", "There may be missing attributes in your request"],
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

Deno.test("[elitedias contract] reseller top-up: HTTP 429 is throttled (not carried out), never a refusal", async () => {
  await withRecordedAnswer("elitedias", "topup-rate-limited", async ({ url, requests }) => {
    assert.deepEqual(await elitediasAt(url).topup(TOPUP), {
      ok: false,
      kind: "throttled",
      message: "EliteDias is limiting our requests (HTTP 429): Too Many Requests",
      code: "429",
    });
    assert.equal(requests.length, 1, "the client leaves the retry to its caller");
  });
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

/** One call to the in-process simulator, with the Origin and api_key the client sends. */
async function askSimulator(
  sim: ElitediasSimulator,
  path: string,
  fields: Record<string, unknown> = {},
): Promise<{ status: number; body: unknown }> {
  const body = path === "checkid" ? fields : { api_key: ELITEDIAS_SIMULATOR_API_KEY, ...fields };
  const response = await sim.handler(
    new Request(`http://simulator.test/${path}`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Origin": "https://shop.example" },
    }),
  );
  return { status: response.status, body: await response.json() };
}

Deno.test("[elitedias simulator] every call is answered in the shape of its recorded answer", async (t) => {
  const sim = createElitediasSimulator();
  const order = { game: "mlbb", userid: "11111111", serverid: "1111", denom: "86 Diamonds" };
  const created = await askSimulator(sim, "elitedias_reseller_topup_api", {
    ...order,
    reference: "SIM-1",
  });
  const orderId = String((created.body as { order_id: unknown }).order_id);
  const cases: {
    fixture: string;
    ask: () => Promise<{ status: number; body: unknown }>;
    options?: WireShapeOptions;
    /** Top-level keys whose recorded values are documented, so the simulator must send them too. */
    documented?: string[];
    /** The step's name when it is not the fixture's. */
    step?: string;
  }[] = [
    { fixture: "topup-success", ask: () => Promise.resolve(created), documented: ["status"] },
    {
      fixture: "topup-insufficient-balance",
      ask: async () => {
        sim.setBalance("0.00");
        const answer = await askSimulator(sim, "elitedias_reseller_topup_api", {
          ...order,
          reference: "SIM-2",
        });
        sim.setBalance("1000.00");
        return answer;
      },
      documented: ["code", "message"],
    },
    {
      fixture: "topup-invalid-product",
      ask: () =>
        askSimulator(sim, "elitedias_reseller_topup_api", {
          ...order,
          denom: "9 Diamonds",
          reference: "SIM-3",
        }),
      documented: ["code", "message"],
    },
    {
      fixture: "topup-missing-attributes",
      ask: () =>
        askSimulator(sim, "elitedias_reseller_topup_api", {
          ...order,
          userid: "",
          reference: "SIM-4",
        }),
      documented: ["code", "message"],
    },
    {
      fixture: "track-order-pending",
      ask: () => askSimulator(sim, "track_order", { order_id: orderId }),
      // The recorded pending answer lacks both, which TrackOrderResponse allows.
      options: { optional: ["$.order_id", "$.price"] },
    },
    {
      fixture: "track-order-success",
      ask: () => {
        sim.completeOrder(orderId);
        return askSimulator(sim, "track_order", { order_id: orderId });
      },
      documented: ["order_status"],
    },
    {
      fixture: "track-order-success",
      step: "track-order-success, a game whose denominations send string prices",
      ask: async () => {
        const topup = await askSimulator(sim, "elitedias_reseller_topup_api", {
          game: "hok",
          userid: "800123456",
          denom: "80 Tokens",
          reference: "SIM-5",
        });
        const hokOrderId = String((topup.body as { order_id: unknown }).order_id);
        sim.completeOrder(hokOrderId);
        return askSimulator(sim, "track_order", { order_id: hokOrderId });
      },
    },
    {
      fixture: "games-data",
      ask: () => askSimulator(sim, "elitedias_games_data"),
      options: { maps: ["$.info"] },
    },
    { fixture: "games-available", ask: () => askSimulator(sim, "elitedias_games_available") },
    {
      fixture: "denominations",
      ask: () => askSimulator(sim, "elitedias_api_denominations", { game: "mlbb" }),
      options: { maps: ["$"] },
    },
    {
      fixture: "denominations-string-prices",
      ask: () => askSimulator(sim, "elitedias_api_denominations", { game: "hok" }),
      options: { maps: ["$"] },
    },
    {
      fixture: "game-fields",
      ask: () => askSimulator(sim, "elitedias_game_fields", { game: "mlbb" }),
    },
    {
      fixture: "checkid-valid",
      ask: () =>
        askSimulator(sim, "checkid", { game: "mlbb", userid: "11111111", serverid: "1111" }),
      // openid is sent for some games only; region is our spec's addition for Mobile Legends.
      options: { optional: ["$.openid", "$.region"] },
    },
    {
      fixture: "checkid-invalid",
      ask: () => askSimulator(sim, "checkid", { game: "pubgm", userid: "invalid42" }),
    },
    {
      fixture: "checkid-error",
      ask: () =>
        askSimulator(sim, "checkid", { game: "mlbb", userid: "66666666", serverid: "6666" }),
      // The error text is our spec's addition.
      options: { optional: ["$.error"] },
    },
    { fixture: "balance", ask: () => askSimulator(sim, "elitedias_api_balance") },
  ];
  for (const { fixture, ask, options, documented = [], step = fixture } of cases) {
    await t.step(step, async () => {
      const recorded = readRecordedAnswer("elitedias", fixture);
      const answer = await ask();
      assert.equal(answer.status, recorded.status, "HTTP status");
      assertSameWireShape(answer.body, recorded.body, options);
      for (const key of documented) {
        assert.equal(
          (answer.body as Record<string, unknown>)[key],
          (recorded.body as Record<string, unknown>)[key],
          key,
        );
      }
    });
  }
});
