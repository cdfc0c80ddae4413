// MooGold's documented answers (tests/fixtures/moogold/) read by the real client (what each call
// returns, how each error is classified), and the simulator answering in the same shapes.

import assert from "node:assert/strict";
import { createMoogoldClient, type MoogoldClient } from "../../src/integrations/moogold/client.ts";
import {
  createMoogoldSimulator,
  MOOGOLD_SIMULATOR_CREDENTIALS,
  type MoogoldSimulator,
} from "../../src/integrations/moogold/simulator.ts";
import { moogoldBasicAuth, signMoogoldRequest } from "../../src/integrations/moogold/wire.ts";
import type { SupplierResult } from "../../src/integrations/fetch-json.ts";
import { readRecordedAnswer, withRecordedAnswer } from "../helpers/recorded-answers.ts";
import { assertSameWireShape, type WireShapeOptions } from "../helpers/wire-shape.ts";

const API_PATH = "/wp-json/v1/api";

function moogoldAt(url: string): MoogoldClient {
  return createMoogoldClient({
    baseUrl: `${url}${API_PATH}/`,
    partnerId: "example_partner",
    secretKey: "example_secret",
    timeoutMs: 2_000,
  });
}

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

const ORDER_ITEM = {
  product: "Mobile Legends - 86 Diamonds",
  variationId: 4690783,
  quantity: 1,
  price: "1.55",
  playerId: "12314123",
  serverId: "3402",
};

Deno.test("[moogold contract] order_detail_partner_id without total is an order whose total is null", async () => {
  await withRecordedAnswer("moogold", "order-detail-partner-id", async ({ url, requests }) => {
    const order = valueOf(await moogoldAt(url).orderDetailByPartnerId("WF-ABC123"));
    assert.deepEqual(order, {
      orderId: 8412395,
      partnerOrderId: "WF-ABC123",
      status: "successful",
      supplierStatus: "completed",
      dateCreated: "2025-03-14 09:26:53.000000",
      total: null,
      items: [ORDER_ITEM],
    });
    assert.equal(requests[0].pathname, `${API_PATH}/order/order_detail_partner_id`);
    assert.deepEqual(JSON.parse(requests[0].body), {
      path: "order/order_detail_partner_id",
      partner_order_id: "WF-ABC123",
    });
  });
});

Deno.test("[moogold contract] order_detail_partner_id with a total, as order_detail has, keeps it", async () => {
  await withRecordedAnswer("moogold", "order-detail-partner-id-with-total", async ({ url }) => {
    const order = valueOf(await moogoldAt(url).orderDetailByPartnerId("WF-ABC123"));
    assert.equal(order.total, "1.55");
    assert.equal(order.supplierStatus, "refunded");
    assert.equal(order.status, "failed");
  });
});

Deno.test("[moogold contract] order_detail: a string date, decimal-string prices, processing is pending", async () => {
  await withRecordedAnswer("moogold", "order-detail", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).orderDetail(8412395)), {
      orderId: 8412395,
      partnerOrderId: null,
      status: "pending",
      supplierStatus: "processing",
      dateCreated: "2025-03-14 09:26:53",
      total: "1.55",
      items: [ORDER_ITEM],
    });
    assert.deepEqual(JSON.parse(requests[0].body), {
      path: "order/order_detail",
      order_id: 8412395,
    });
  });
});

const ORDER_INPUT = {
  variationId: 215570,
  category: 1 as const,
  fields: { "User ID": "12314123", "Server": "3402" },
  partnerOrderId: "WF-ABC123",
};

Deno.test('[moogold contract] create_order: the order id from account_details, status "true" or true', async () => {
  for (const name of ["create-order-success", "create-order-success-boolean-status"]) {
    await withRecordedAnswer("moogold", name, async ({ url, requests }) => {
      assert.deepEqual(valueOf(await moogoldAt(url).createOrder(ORDER_INPUT)), {
        orderId: 8412395,
        message: "Order has been created successfully",
      }, name);
      assert.equal(requests[0].pathname, `${API_PATH}/order/create_order`);
      assert.deepEqual(JSON.parse(requests[0].body), {
        path: "order/create_order",
        data: {
          category: 1,
          "product-id": 215570,
          quantity: 1,
          "User ID": "12314123",
          "Server": "3402",
        },
        partnerOrderId: "WF-ABC123",
      });
    });
  }
});

Deno.test("[moogold contract] create_order: an order id at the top level (Medboubazine) is read too", async () => {
  await withRecordedAnswer("moogold", "create-order-success-order-id-at-top", async ({ url }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).createOrder(ORDER_INPUT)), {
      orderId: 8412395,
      message: "",
    });
  });
});

Deno.test("[moogold contract] create_order errors 111, 420 and 114 are supplier errors with their err_code", async () => {
  const cases = [
    [
      "create-order-insufficient-balance",
      "111",
      "Insufficient Balance, kindly reload your balance and try again.",
    ],
    ["create-order-duplicate-partner-order-id", "420", "Duplicate Partner Order ID provided."],
    [
      "create-order-out-of-stock",
      "114",
      "Product Out of Stock, kindly contact account manager for more info.",
    ],
  ];
  for (const [name, code, message] of cases) {
    await withRecordedAnswer("moogold", name, async ({ url }) => {
      assert.deepEqual(await moogoldAt(url).createOrder(ORDER_INPUT), {
        ok: false,
        kind: "supplier",
        message,
        code,
      }, name);
    });
  }
});

Deno.test("[moogold contract] create_order: 109 Invalid Signature is re-signed the other way once, then reported", async () => {
  await withRecordedAnswer(
    "moogold",
    "create-order-invalid-signature",
    async ({ url, requests }) => {
      const client = moogoldAt(url);
      assert.deepEqual(await client.createOrder(ORDER_INPUT), {
        ok: false,
        kind: "supplier",
        message: "Invalid Signature.",
        code: "109",
      });
      assert.equal(requests.length, 2, "one request each way, no more");
      const [signed, unsigned] = requests.map((r) => JSON.parse(r.body));
      assert.deepEqual(signed, unsigned, "the same order both times");
      assert.equal(signed.partnerOrderId, "WF-ABC123");
      assert.deepEqual(client.createOrderSigning(), {
        partnerOrderIdSigned: true,
        confirmed: false,
      });
    },
  );
});

Deno.test("[moogold contract] WordPress's rest_no_route 404 is a supplier error, for create_order and validate", async () => {
  await withRecordedAnswer("moogold", "rest-no-route", async ({ url }) => {
    const client = moogoldAt(url);
    const refusal = {
      ok: false,
      kind: "supplier",
      message: "No route was found matching the URL and request method.",
      code: "rest_no_route",
    };
    assert.deepEqual(await client.createOrder(ORDER_INPUT), refusal);
    assert.deepEqual(await client.validate(15145, { "User ID": "12314123" }), refusal);
  });
});

Deno.test('[moogold contract] validate: status "true" with a username, "false" without one', async () => {
  await withRecordedAnswer("moogold", "validate-success", async ({ url, requests }) => {
    const fields = { "User ID": "12314123", "Server": "3402" };
    assert.deepEqual(valueOf(await moogoldAt(url).validate(15145, fields)), {
      valid: true,
      username: "KaguraMain",
      message: "Validation success",
    });
    assert.deepEqual(JSON.parse(requests[0].body), {
      path: "product/validate",
      data: { "product-id": 15145, ...fields },
    });
  });
  await withRecordedAnswer("moogold", "validate-invalid", async ({ url }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).validate(15145, { "User ID": "1" })), {
      valid: false,
      username: null,
      message: "Invalid user",
    });
  });
});

Deno.test("[moogold contract] list_product: string ids become numbers", async () => {
  await withRecordedAnswer("moogold", "list-product", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).listProducts(50)), [
      { id: 15145, title: "Mobile Legends" },
      { id: 2362359, title: "Free Fire" },
      { id: 3636183, title: "Valorant" },
    ]);
    assert.deepEqual(JSON.parse(requests[0].body), {
      path: "product/list_product",
      category_id: 50,
    });
  });
});

Deno.test("[moogold contract] product_detail: number prices become exact decimal text", async () => {
  await withRecordedAnswer("moogold", "product-detail", async ({ url }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).productDetail(15145)), {
      name: "Mobile Legends",
      imageUrl: "https://moogold.com/wp-content/uploads/2020/08/mobile-legends.jpg",
      variations: [
        { id: 215570, name: "Mobile Legends - 86 Diamonds", price: "1.55" },
        { id: 215571, name: "Mobile Legends - Weekly Diamond Pass", price: "1.4" },
      ],
      fields: ["User ID", "Server"],
    });
  });
});

Deno.test('[moogold contract] server_list: a map, or null for "Product has no server list"', async () => {
  await withRecordedAnswer("moogold", "server-list", async ({ url }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).serverList(3689112)), {
      "America": "os_usa",
      "Europe": "os_euro",
      "Asia": "os_asia",
      "TW, HK, MO": "os_cht",
    });
  });
  await withRecordedAnswer("moogold", "server-list-none", async ({ url }) => {
    assert.equal(valueOf(await moogoldAt(url).serverList(2362359)), null);
  });
});

Deno.test("[moogold contract] user/balance: the balance string is kept exact", async () => {
  await withRecordedAnswer("moogold", "balance", async ({ url, requests }) => {
    assert.deepEqual(valueOf(await moogoldAt(url).balance()), {
      currency: "USD",
      balance: "194.35",
    });
    assert.equal(requests[0].body, '{"path":"user/balance"}');
  });
});

/** One signed call to the in-process simulator, as the client would make it. */
async function askSimulator(
  sim: MoogoldSimulator,
  path: string,
  fields: Record<string, unknown> = {},
): Promise<{ status: number; body: unknown }> {
  const { partnerId, secretKey } = MOOGOLD_SIMULATOR_CREDENTIALS;
  const body = JSON.stringify({ path, ...fields });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await sim.handler(
    new Request(`http://simulator.test/${path}`, {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "timestamp": timestamp,
        "auth": signMoogoldRequest(secretKey, body, timestamp, path),
        "Authorization": moogoldBasicAuth(partnerId, secretKey),
      },
    }),
  );
  return { status: response.status, body: await response.json() };
}

Deno.test("[moogold simulator] every call is answered in the shape of its recorded answer", async (t) => {
  const sim = createMoogoldSimulator();
  const mlbbOrder = {
    data: {
      category: 1,
      "product-id": 4690783,
      quantity: 1,
      "User ID": "11111111",
      "Server": "1111",
    },
    partnerOrderId: "SIM-1",
  };
  const created = await askSimulator(sim, "order/create_order", mlbbOrder);
  const { order_id } = (created.body as { account_details: { order_id: unknown } }).account_details;
  const cases: {
    fixture: string;
    ask: () => Promise<{ status: number; body: unknown }>;
    options?: WireShapeOptions;
    /** MooGold's HTTP status of an error is not documented: only its body is compared. */
    bodyOnly?: boolean;
    /** Top-level keys whose recorded values are documented, so the simulator must send them too. */
    documented?: string[];
  }[] = [
    {
      fixture: "create-order-success",
      ask: () => Promise.resolve(created),
      documented: ["message"],
    },
    {
      fixture: "create-order-duplicate-partner-order-id",
      ask: () => askSimulator(sim, "order/create_order", mlbbOrder),
      bodyOnly: true,
      documented: ["err_code"],
    },
    {
      fixture: "create-order-insufficient-balance",
      ask: async () => {
        sim.setBalance("0.00");
        const answer = await askSimulator(sim, "order/create_order", {
          ...mlbbOrder,
          partnerOrderId: "SIM-2",
        });
        sim.setBalance("1000.00");
        return answer;
      },
      bodyOnly: true,
      documented: ["err_code"],
    },
    {
      fixture: "create-order-out-of-stock",
      ask: async () => {
        sim.rejectOrders();
        const answer = await askSimulator(sim, "order/create_order", {
          ...mlbbOrder,
          partnerOrderId: "SIM-3",
        });
        sim.acceptOrders();
        return answer;
      },
      bodyOnly: true,
      documented: ["err_code"],
    },
    {
      fixture: "create-order-invalid-signature",
      ask: async () => {
        sim.requireSigning(false);
        const answer = await askSimulator(sim, "order/create_order", {
          ...mlbbOrder,
          partnerOrderId: "SIM-4",
        });
        sim.requireSigning(true);
        return answer;
      },
      documented: ["err_code", "err_message"],
    },
    {
      fixture: "rest-no-route",
      ask: () => askSimulator(sim, "product/no_such_route"),
      documented: ["code", "message"],
    },
    {
      fixture: "order-detail",
      ask: () => askSimulator(sim, "order/order_detail", { order_id: Number(order_id) }),
    },
    {
      fixture: "order-detail-partner-id",
      ask: () => askSimulator(sim, "order/order_detail_partner_id", { partner_order_id: "SIM-1" }),
    },
    {
      fixture: "validate-success",
      ask: () =>
        askSimulator(sim, "product/validate", {
          data: { "product-id": 2362359, "Player ID": "123456789" },
        }),
    },
    {
      fixture: "validate-invalid",
      ask: () =>
        askSimulator(sim, "product/validate", {
          data: { "product-id": 2362359, "Player ID": "invalid-1" },
        }),
    },
    {
      fixture: "list-product",
      ask: () => askSimulator(sim, "product/list_product", { category_id: 50 }),
    },
    {
      fixture: "product-detail",
      ask: () => askSimulator(sim, "product/product_detail", { product_id: 15145 }),
    },
    {
      fixture: "server-list",
      ask: () => askSimulator(sim, "product/server_list", { product_id: 5177311 }),
      options: { maps: ["$"] },
    },
    {
      fixture: "server-list-none",
      ask: () => askSimulator(sim, "product/server_list", { product_id: 2362359 }),
    },
    { fixture: "balance", ask: () => askSimulator(sim, "user/balance") },
  ];
  for (const { fixture, ask, options, bodyOnly, documented = [] } of cases) {
    await t.step(fixture, async () => {
      const recorded = readRecordedAnswer("moogold", fixture);
      const answer = await ask();
      if (!bodyOnly) assert.equal(answer.status, recorded.status, "HTTP status");
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
