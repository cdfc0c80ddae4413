import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import {
  createMoogoldClient,
  mapMoogoldOrderStatus,
  type MoogoldClient,
  type MoogoldClientOptions,
} from "../../src/integrations/moogold/client.ts";
import { moogoldBasicAuth, signMoogoldRequest } from "../../src/integrations/moogold/wire.ts";
import {
  createMoogoldSimulator,
  MOOGOLD_SIMULATOR_CREDENTIALS,
  type MoogoldSimulator,
  type MoogoldSimulatorOptions,
} from "../../src/integrations/moogold/simulator.ts";
import { MOOGOLD_MLBB_PRODUCT_ID } from "../../src/integrations/moogold/catalogue.ts";
import { type SupplierResult } from "../../src/integrations/fetch-json.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const MLBB = MOOGOLD_MLBB_PRODUCT_ID;
const MLBB_86_DIAMONDS = 4690783;
const FREE_FIRE = 2362359;
const RAGNAROK = 5177311;

interface Harness {
  sim: MoogoldSimulator;
  client: MoogoldClient;
  url: string;
  /** Moves the simulator's clock forward (kept inside its 5-minute timestamp window). */
  advance(ms: number): void;
  /** Requests that reached the simulator for `path` ("order/create_order"), whatever it answered. */
  requestsTo(path: string): number;
}

async function withMoogold(
  run: (h: Harness) => Promise<void>,
  options: { sim?: MoogoldSimulatorOptions; client?: Partial<MoogoldClientOptions> } = {},
): Promise<void> {
  let offset = 0;
  const sim = createMoogoldSimulator({
    basePath: "/__sim/moogold",
    now: () => Date.now() + offset,
    ...options.sim,
  });
  const requests = new Map<string, number>();
  const server = startSimulatorServer((request) => {
    const path = new URL(request.url).pathname.replace("/__sim/moogold/", "");
    requests.set(path, (requests.get(path) ?? 0) + 1);
    return sim.handler(request);
  });
  try {
    const client = createMoogoldClient({
      baseUrl: `${server.url}/__sim/moogold/`,
      ...MOOGOLD_SIMULATOR_CREDENTIALS,
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
      requestsTo: (path) => requests.get(path) ?? 0,
    });
  } finally {
    await server.close();
  }
}

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

Deno.test("[moogold] signs the body, timestamp and path with HMAC-SHA256 (worked example)", () => {
  const body = '{"path":"product/product_detail","product_id":15145}';
  assert.equal(
    signMoogoldRequest("example_secret", body, "1700000000", "product/product_detail"),
    "aaa24a9aaca6ce92ad4d92c74162c9cd172e6c58ce9c8b2dd68dbc7674c0dbc7",
  );
  assert.equal(
    moogoldBasicAuth("example_partner", "example_secret"),
    "Basic ZXhhbXBsZV9wYXJ0bmVyOmV4YW1wbGVfc2VjcmV0",
  );
});

Deno.test("[moogold] the exact bytes sent are the bytes signed, with every required header", async () => {
  let seen: { url: string; headers: Headers; body: string } | undefined;
  const server = startSimulatorServer(async (request) => {
    seen = { url: request.url, headers: request.headers, body: await request.text() };
    return Response.json({ currency: "USD", balance: "1.00" });
  });
  try {
    const client = createMoogoldClient({
      baseUrl: `${server.url}/wp-json/v1/api/`,
      partnerId: "p1",
      secretKey: "s1",
      timeoutMs: 2_000,
    });
    valueOf(await client.balance());
  } finally {
    await server.close();
  }
  assert.ok(seen);
  assert.equal(new URL(seen.url).pathname, "/wp-json/v1/api/user/balance");
  assert.equal(seen.body, '{"path":"user/balance"}');
  const timestamp = seen.headers.get("timestamp") ?? "";
  assert.match(timestamp, /^\d{10}$/);
  const expected = createHmac("sha256", "s1")
    .update(`${seen.body}${timestamp}user/balance`)
    .digest("hex");
  assert.equal(seen.headers.get("auth"), expected);
  assert.equal(seen.headers.get("authorization"), moogoldBasicAuth("p1", "s1"));
  assert.equal(seen.headers.get("content-type"), "application/json");
  assert.equal(seen.headers.get("accept"), "application/json");
});

Deno.test("[moogold] list_product lists the direct top-up category with ids and titles", async () => {
  await withMoogold(async ({ client }) => {
    const products = valueOf(await client.listProducts(50));
    assert.ok(products.length >= 5);
    assert.deepEqual(products.find((p) => p.id === MLBB), { id: MLBB, title: "Mobile Legends" });
    assert.deepEqual(valueOf(await client.listProducts(51)), []);
  });
});

Deno.test("[moogold] product_detail gives variations with exact prices and field labels", async () => {
  await withMoogold(async ({ client }) => {
    const detail = valueOf(await client.productDetail(MLBB));
    assert.equal(detail.name, "Mobile Legends");
    assert.deepEqual(detail.fields, ["User ID", "Server"]);
    assert.deepEqual(detail.variations[0], {
      id: MLBB_86_DIAMONDS,
      name: "Mobile Legends - 86 Diamonds",
      price: "1.55",
    });
    const freeFire = valueOf(await client.productDetail(FREE_FIRE));
    assert.ok(freeFire.variations.some((v) => v.price === "0"), "a variation priced 0");
    const ragnarok = valueOf(await client.productDetail(RAGNAROK));
    assert.deepEqual(ragnarok.fields, ["User ID", "Server", "Character Name"]);
  });
});

Deno.test("[moogold] setCost changes the price product_detail reports", async () => {
  await withMoogold(async ({ client, sim }) => {
    sim.setCost(MLBB_86_DIAMONDS, "1.99");
    const detail = valueOf(await client.productDetail(MLBB));
    assert.equal(detail.variations.find((v) => v.id === MLBB_86_DIAMONDS)?.price, "1.99");
  });
});

Deno.test("[moogold] server_list is a map, or null for 'Enter from Website' / 'Product has no server list'", async () => {
  await withMoogold(async ({ client }) => {
    assert.deepEqual(valueOf(await client.serverList(RAGNAROK)), {
      "SEA - Prontera": "1001",
      "SEA - Izlude": "1002",
      "SEA - Morroc": "1003",
      "SEA - Payon": "1004",
    });
    assert.equal(valueOf(await client.serverList(MLBB)), null);
    assert.equal(valueOf(await client.serverList(FREE_FIRE)), null);
  });
});

Deno.test("[moogold] validate answers the username, and refuses an 'invalid…' player", async () => {
  await withMoogold(async ({ client }) => {
    const ok = valueOf(await client.validate(FREE_FIRE, { "Player ID": "123456789" }));
    assert.equal(ok.valid, true);
    assert.match(ok.username ?? "", /^[A-Za-z]+\d+$/);
    const again = valueOf(await client.validate(FREE_FIRE, { "Player ID": "123456789" }));
    assert.equal(again.username, ok.username, "the generated name is deterministic");
    const refused = valueOf(await client.validate(FREE_FIRE, { "Player ID": "invalid-1" }));
    assert.deepEqual(refused, { valid: false, username: null, message: "Invalid user" });
  });
});

Deno.test("[moogold] an order moves from processing to completed and is found by either id", async () => {
  await withMoogold(async ({ client, advance }) => {
    const created = valueOf(
      await client.createOrder({
        variationId: MLBB_86_DIAMONDS,
        category: 1,
        fields: { "User ID": "11111111", "Server": "1111" },
        partnerOrderId: "ORD-1",
      }),
    );
    const pending = valueOf(await client.orderDetail(created.orderId));
    assert.equal(pending.supplierStatus, "processing");
    assert.equal(pending.status, "pending");
    assert.equal(pending.total, "1.55");
    assert.deepEqual(pending.items[0], {
      product: "Mobile Legends - 86 Diamonds",
      variationId: MLBB_86_DIAMONDS,
      quantity: 1,
      price: "1.55",
      playerId: "11111111",
      serverId: "1111",
    });
    advance(5_000);
    const done = valueOf(await client.orderDetailByPartnerId("ORD-1"));
    assert.equal(done.orderId, created.orderId);
    assert.equal(done.partnerOrderId, "ORD-1");
    assert.equal(done.status, "successful");
    assert.match(done.dateCreated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  });
});

Deno.test("[moogold] an order for an account that does not validate ends incorrect-details (failed)", async () => {
  await withMoogold(async ({ client, sim }) => {
    const created = valueOf(
      await client.createOrder({
        variationId: MLBB_86_DIAMONDS,
        category: 1,
        fields: { "User ID": "55555555", "Server": "5555" },
        partnerOrderId: "ORD-BAD",
      }),
    );
    assert.equal(valueOf(await client.orderDetail(created.orderId)).status, "pending");
    sim.knobs.completeAfterMs = 0;
    const order = valueOf(await client.orderDetail(created.orderId));
    assert.equal(order.supplierStatus, "incorrect-details");
    assert.equal(order.status, "failed");
  });
});

Deno.test("[moogold] completeOrder and setOrderStatus move an order on demand", async () => {
  await withMoogold(async ({ client, sim }) => {
    const { orderId } = valueOf(
      await client.createOrder({
        variationId: MLBB_86_DIAMONDS,
        category: 1,
        fields: { "User ID": "12345678", "Server": "1234" },
        partnerOrderId: "ORD-2",
      }),
    );
    sim.completeOrder(orderId);
    assert.equal(valueOf(await client.orderDetail(orderId)).status, "successful");
    sim.setOrderStatus(orderId, "refunded");
    assert.equal(valueOf(await client.orderDetail(orderId)).status, "failed");
  });
});

Deno.test("[moogold] a repeated partnerOrderId is refused with 420 and creates no second order", async () => {
  await withMoogold(async ({ client, sim }) => {
    const input = {
      variationId: MLBB_86_DIAMONDS,
      category: 1 as const,
      fields: { "User ID": "12345678", "Server": "1234" },
      partnerOrderId: "ORD-DUP",
    };
    sim.setBalance("10.00");
    const first = valueOf(await client.createOrder(input));
    const second = await client.createOrder(input);
    assert.deepEqual(second, {
      ok: false,
      kind: "supplier",
      message: "Duplicate partnerOrderId",
      code: "420",
    });
    assert.equal(sim.listOrders().length, 1);
    assert.equal(valueOf(await client.orderDetailByPartnerId("ORD-DUP")).orderId, first.orderId);
    assert.equal(valueOf(await client.balance()).balance, "8.45", "charged once");
  });
});

Deno.test("[moogold] rejectOrders makes create_order fail definitively with 114 out of stock", async () => {
  await withMoogold(async ({ client, sim }) => {
    sim.rejectOrders();
    const result = await client.createOrder({
      variationId: MLBB_86_DIAMONDS,
      category: 1,
      fields: { "User ID": "12345678", "Server": "1234" },
      partnerOrderId: "ORD-OOS",
    });
    assert.deepEqual(result, {
      ok: false,
      kind: "supplier",
      message: "Out of stock",
      code: "114",
    });
    assert.equal(sim.listOrders().length, 0);
  });
});

Deno.test("[moogold] balance is the wallet as exact decimal text", async () => {
  await withMoogold(async ({ client, sim }) => {
    sim.setBalance("194.35");
    assert.deepEqual(valueOf(await client.balance()), {
      currency: "USD",
      balance: "194.35",
    });
  });
});

Deno.test("[moogold] a wrong secret is refused with err_code 422", async () => {
  await withMoogold(async ({ client }) => {
    const result = await client.balance();
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.kind, "supplier");
    assert.equal(!result.ok && result.code, "422");
  }, { client: { secretKey: "wrong" } });
});

Deno.test("[moogold] a body path that differs from the URL path is refused with 418", async () => {
  await withMoogold(async ({ url }) => {
    const { partnerId, secretKey } = MOOGOLD_SIMULATOR_CREDENTIALS;
    const body = '{"path":"user/balance"}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await fetch(`${url}/__sim/moogold/product/list_product`, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "timestamp": timestamp,
        "auth": signMoogoldRequest(
          secretKey,
          body,
          timestamp,
          "product/list_product",
        ),
        "Authorization": moogoldBasicAuth(partnerId, secretKey),
      },
    });
    assert.deepEqual(await response.json(), {
      err_code: "418",
      err_message: "Path mismatch",
    });
  });
});

function mlbbOrder(partnerOrderId: string) {
  return {
    variationId: MLBB_86_DIAMONDS,
    category: 1 as const,
    fields: { "User ID": "12345678", "Server": "1234" },
    partnerOrderId,
  };
}

const CREATE = "order/create_order";

Deno.test("[moogold] create_order signs partnerOrderId inside the body by default, as MooGold's api-doc shows", async () => {
  await withMoogold(async ({ client, sim, requestsTo }) => {
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: true, confirmed: false });
    valueOf(await client.createOrder(mlbbOrder("ORD-SIGNED")));
    assert.equal(requestsTo(CREATE), 1);
    assert.equal(sim.listOrders().length, 1);
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: true, confirmed: true });
  });
});

Deno.test("[moogold] a signature refusal re-signs once without partnerOrderId and remembers it", async () => {
  await withMoogold(async ({ client, sim, requestsTo }) => {
    sim.requireSigning(false);
    const first = valueOf(await client.createOrder(mlbbOrder("ORD-RESIGNED")));
    assert.equal(requestsTo(CREATE), 2, "refused once (109), then accepted");
    assert.deepEqual(sim.listOrders().map((o) => [o.orderId, o.partnerOrderId]), [
      [first.orderId, "ORD-RESIGNED"],
    ]);
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: false, confirmed: true });
    valueOf(await client.createOrder(mlbbOrder("ORD-NEXT")));
    assert.equal(requestsTo(CREATE), 3, "the next order goes out signed the accepted way");
    assert.equal(sim.listOrders().length, 2);
  });
});

Deno.test("[moogold] a client set to sign {path, data} re-signs with partnerOrderId when MooGold refuses", async () => {
  await withMoogold(async ({ client, sim, requestsTo }) => {
    valueOf(await client.createOrder(mlbbOrder("ORD-BACK")));
    assert.equal(requestsTo(CREATE), 2);
    assert.equal(sim.listOrders().length, 1);
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: true, confirmed: true });
  }, { client: { signPartnerOrderId: false } });
});

Deno.test("[moogold] a refusal that is not a signature's is never re-signed (it could order twice)", async () => {
  await withMoogold(async ({ client, sim, requestsTo }) => {
    sim.rejectOrders();
    const refused = await client.createOrder(mlbbOrder("ORD-OOS-ONCE"));
    assert.equal(!refused.ok && refused.code, "114");
    sim.acceptOrders();
    sim.forceNext("error", 1, CREATE);
    const failed = await client.createOrder(mlbbOrder("ORD-500-ONCE"));
    assert.equal(!failed.ok && failed.code, "500");
    sim.forceNext("timeout", 1, CREATE);
    const timedOut = await client.createOrder(mlbbOrder("ORD-TIMEOUT-ONCE"));
    assert.equal(!timedOut.ok && timedOut.kind, "timeout");
    assert.equal(requestsTo(CREATE), 3, "one request each");
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: true, confirmed: false });
  }, { client: { timeoutMs: 300 } });
});

Deno.test("[moogold] a signing learned once is kept: a later refusal re-signs the other way once more", async () => {
  await withMoogold(async ({ client, sim, requestsTo }) => {
    sim.requireSigning(false);
    valueOf(await client.createOrder(mlbbOrder("ORD-A")));
    sim.requireSigning(true);
    valueOf(await client.createOrder(mlbbOrder("ORD-B")));
    assert.equal(requestsTo(CREATE), 4);
    assert.deepEqual(client.createOrderSigning(), { partnerOrderIdSigned: true, confirmed: true });
  });
});

Deno.test("[moogold] mapMoogoldOrderStatus: completed, processing/sending, refunded/incorrect-details", () => {
  assert.equal(mapMoogoldOrderStatus("completed"), "successful");
  assert.equal(mapMoogoldOrderStatus("processing"), "pending");
  assert.equal(mapMoogoldOrderStatus("sending"), "pending");
  assert.equal(mapMoogoldOrderStatus("refunded"), "failed");
  assert.equal(mapMoogoldOrderStatus("incorrect-details"), "failed");
  assert.equal(
    mapMoogoldOrderStatus("on-hold"),
    "pending",
    "unknown stays pending, never refunded",
  );
});
