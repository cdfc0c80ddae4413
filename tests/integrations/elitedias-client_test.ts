import assert from "node:assert/strict";
import {
  createElitediasClient,
  type ElitediasClient,
  type ElitediasClientOptions,
  mapElitediasOrderStatus,
} from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
  type ElitediasSimulator,
  type ElitediasSimulatorOptions,
} from "../../src/integrations/elitedias/simulator.ts";
import { type SupplierResult } from "../../src/integrations/fetch-json.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

interface Harness {
  sim: ElitediasSimulator;
  client: ElitediasClient;
  url: string;
  advance(ms: number): void;
}

async function withElitedias(
  run: (h: Harness) => Promise<void>,
  options: { sim?: ElitediasSimulatorOptions; client?: Partial<ElitediasClientOptions> } = {},
): Promise<void> {
  let offset = 0;
  const sim = createElitediasSimulator({
    basePath: "/__sim/elitedias",
    now: () => Date.now() + offset,
    ...options.sim,
  });
  const server = startSimulatorServer(sim.handler);
  try {
    const client = createElitediasClient({
      baseUrl: `${server.url}/__sim/elitedias`,
      checkIdUrl: `${server.url}/__sim/elitedias/checkid`,
      apiKey: ELITEDIAS_SIMULATOR_API_KEY,
      origin: "https://shop.example",
      timeoutMs: 2_000,
      ...options.client,
    });
    await run({
      sim,
      client,
      url: server.url,
      advance: (ms) => {
        offset += ms;
      },
    });
  } finally {
    await server.close();
  }
}

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

const MLBB_ORDER = { game: "mlbb", userid: "11111111", serverid: "1111", denom: "86 Diamonds" };

Deno.test("[elitedias] games_available lists the MLBB packages and at least four other games", async () => {
  await withElitedias(async ({ client }) => {
    const games = valueOf(await client.gamesAvailable());
    const expected = ["mlbb", "mlbb_special", "mlbb_global", "genshin", "pubgm", "hok"];
    for (const game of [...expected, "honkai_star_rail"]) assert.ok(games.includes(game), game);
  });
});

Deno.test("[elitedias] denominations are a flat name → exact decimal map, numbers or strings", async () => {
  await withElitedias(async ({ client }) => {
    const mlbb = valueOf(await client.denominations("mlbb"));
    assert.equal(mlbb["86 Diamonds"], "1.52");
    assert.equal(mlbb["Weekly Diamond Pass"], "1.38");
    assert.equal(valueOf(await client.denominations("mlbb_special"))["50"], "0.78");
    assert.equal(valueOf(await client.denominations("hok"))["80 Tokens"], "1.15");
  });
});

Deno.test("[elitedias] a code 403 denominations answer means no denominations, not an error", async () => {
  await withElitedias(async ({ client }) => {
    assert.deepEqual(valueOf(await client.denominations("mlbb_exclusive")), {});
  });
});

Deno.test("[elitedias] setCost changes the price denominations reports", async () => {
  await withElitedias(async ({ client, sim }) => {
    sim.setCost("mlbb_global", "86 Diamonds", 1.71);
    assert.equal(valueOf(await client.denominations("mlbb_global"))["86 Diamonds"], "1.71");
  });
});

Deno.test("[elitedias] game_fields returns info.fields and info.notes", async () => {
  await withElitedias(async ({ client }) => {
    const fields = valueOf(await client.gameFields("genshin"));
    assert.deepEqual(fields.fields, ["userid", "serverid"]);
    assert.match(fields.notes, /Paimon/);
    assert.deepEqual(valueOf(await client.gameFields("pubgm")).fields, ["userid"]);
  });
});

Deno.test("[elitedias] server list is a label → value map, empty for games without servers", async () => {
  await withElitedias(async ({ client }) => {
    const servers = valueOf(await client.serverList("honkai_star_rail"));
    assert.equal(servers["Asia"], "prod_official_asia");
    assert.deepEqual(valueOf(await client.serverList("pubgm")), {});
  });
});

Deno.test("[elitedias] the server-list path is configurable on both client and simulator", async () => {
  await withElitedias(async ({ client }) => {
    assert.equal(valueOf(await client.serverList("genshin"))["Europe"], "os_euro");
  }, {
    sim: { serverListPath: "/elitedias_server_list" },
    client: { serverListPath: "/elitedias_server_list" },
  });
});

Deno.test("[elitedias] checkid on other games refuses a User ID starting with 'invalid'", async () => {
  await withElitedias(async ({ client }) => {
    const ok = valueOf(await client.checkId("genshin", "800123456", "os_asia"));
    assert.equal(ok.valid, "valid");
    assert.ok(ok.name);
    assert.deepEqual(valueOf(await client.checkId("pubgm", "invalid42")), { valid: "invalid" });
    const badServer = valueOf(await client.checkId("genshin", "800123456", "os_mars"));
    assert.deepEqual(badServer, { valid: "invalid" });
  });
});

Deno.test("[elitedias] a top-up stays pending, then tracks as successful", async () => {
  await withElitedias(async ({ client, advance }) => {
    const topup = valueOf(await client.topup({ ...MLBB_ORDER, reference: "REF-1" }));
    assert.match(topup.orderId, /^ED\d+$/);
    const pending = valueOf(await client.trackOrder(topup.orderId));
    assert.deepEqual(pending, {
      orderId: topup.orderId,
      status: "pending",
      supplierStatus: "pending",
      price: "1.52",
      message: "pending",
    });
    advance(5_000);
    assert.equal(valueOf(await client.trackOrder(topup.orderId)).status, "successful");
  });
});

Deno.test("[elitedias] a top-up for an account checkid refuses ends failed", async () => {
  await withElitedias(async ({ client, sim }) => {
    const refused = { ...MLBB_ORDER, userid: "55555555", serverid: "5555", reference: "R" };
    const topup = valueOf(await client.topup(refused));
    sim.knobs.completeAfterMs = 0;
    const order = valueOf(await client.trackOrder(topup.orderId));
    assert.equal(order.supplierStatus, "failed");
    assert.equal(order.status, "failed");
  });
});

Deno.test("[elitedias] a repeated reference returns the same order_id and charges once", async () => {
  await withElitedias(async ({ client, sim }) => {
    sim.setBalance("10.00");
    const first = valueOf(await client.topup({ ...MLBB_ORDER, reference: "REF-DUP" }));
    const second = valueOf(await client.topup({ ...MLBB_ORDER, reference: "REF-DUP" }));
    assert.equal(second.orderId, first.orderId);
    assert.equal(sim.listOrders().length, 1);
    assert.equal(valueOf(await client.balance()), "8.48");
  });
});

Deno.test("[elitedias] completeOrder and setOrderStatus move an order on demand", async () => {
  await withElitedias(async ({ client, sim }) => {
    const { orderId } = valueOf(await client.topup({ ...MLBB_ORDER, reference: "REF-2" }));
    sim.completeOrder(orderId);
    assert.equal(valueOf(await client.trackOrder(orderId)).status, "successful");
    sim.setOrderStatus(orderId, "Refunded");
    assert.equal(valueOf(await client.trackOrder(orderId)).status, "failed");
  });
});

Deno.test("[elitedias] rejectOrders makes a top-up fail definitively with a non-200 code", async () => {
  await withElitedias(async ({ client, sim }) => {
    sim.rejectOrders();
    const result = await client.topup({ ...MLBB_ORDER, reference: "REF-OOS" });
    assert.deepEqual(result, {
      ok: false,
      kind: "supplier",
      message: "Out of stock",
      code: "400",
    });
    assert.equal(sim.listOrders().length, 0);
  });
});

Deno.test("[elitedias] an unknown denomination and a short balance are supplier errors", async () => {
  await withElitedias(async ({ client, sim }) => {
    const unknown = await client.topup({ ...MLBB_ORDER, denom: "9 Diamonds", reference: "A" });
    assert.equal(!unknown.ok && unknown.message, "Invalid product");
    sim.setBalance("1.00");
    const poor = await client.topup({ ...MLBB_ORDER, reference: "B" });
    assert.equal(!poor.ok && poor.code, "403");
  });
});

Deno.test("[elitedias] a wrong api_key is refused with code 401", async () => {
  await withElitedias(async ({ client }) => {
    const result = await client.balance();
    assert.deepEqual(result, {
      ok: false,
      kind: "supplier",
      message: "Invalid API key",
      code: "401",
    });
  }, { client: { apiKey: "wrong" } });
});

Deno.test("[elitedias] a request without an Origin header is refused with HTTP 403", async () => {
  await withElitedias(async ({ url }) => {
    const response = await fetch(`${url}/__sim/elitedias/elitedias_api_balance`, {
      method: "POST",
      body: JSON.stringify({ api_key: ELITEDIAS_SIMULATOR_API_KEY }),
      headers: { "Content-Type": "application/json" },
    });
    assert.equal(response.status, 403);
    await response.body?.cancel();
  });
});

Deno.test("[elitedias] a 429 on a top-up is throttled with the Retry-After it names, and creates nothing", async () => {
  await withElitedias(async ({ client, sim }) => {
    sim.forceNext("throttled", 1, "elitedias_reseller_topup_api");
    const result = await client.topup({ ...MLBB_ORDER, reference: "ORD-429" });
    assert.equal(!result.ok && result.kind, "throttled");
    assert.equal(!result.ok && result.retryAfterMs, 2_000);
    assert.equal(sim.listOrders().length, 0);
    valueOf(await client.topup({ ...MLBB_ORDER, reference: "ORD-429" }));
    assert.equal(sim.listOrders().length, 1, "sent again, it is made once");
  });
});

Deno.test("[elitedias] mapElitediasOrderStatus: success → successful, fail/refund/cancel → failed", () => {
  assert.equal(mapElitediasOrderStatus("Success"), "successful");
  assert.equal(mapElitediasOrderStatus("order_success"), "successful");
  assert.equal(mapElitediasOrderStatus("Failed"), "failed");
  assert.equal(mapElitediasOrderStatus("Refunded"), "failed");
  assert.equal(mapElitediasOrderStatus("Cancelled"), "failed");
  assert.equal(mapElitediasOrderStatus("Processing"), "pending");
});
