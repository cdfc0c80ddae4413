import assert from "node:assert/strict";
import { createHitPayClient, type HitPayClient } from "../../src/integrations/hitpay/client.ts";
import {
  createHitPaySimulator,
  type HitPaySimulator,
} from "../../src/integrations/hitpay/simulator.ts";
import { verifyHitPayWebhook } from "../../src/integrations/hitpay/webhook.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const BASE_PATH = "/__sim/hitpay";
const SALT = "test_salt";
const FORM = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });

interface Harness {
  sim: HitPaySimulator;
  client: HitPayClient;
  /** Webhook bodies the shop received, in order. */
  received: string[];
  /** The shop's webhook and redirect URLs. */
  shop: { webhookUrl: string; redirectUrl: string };
  /** The status the shop's webhook endpoint answers with. */
  setShopStatus(status: number): void;
}

/** A simulator and a stand-in shop that records the webhooks it receives. */
async function withShop(run: (h: Harness) => Promise<void>): Promise<void> {
  const sim = createHitPaySimulator({ basePath: BASE_PATH, salt: SALT });
  const server = startSimulatorServer(sim.handler);
  const received: string[] = [];
  let shopStatus = 200;
  const shop = startSimulatorServer(async (request) => {
    received.push(await request.text());
    return new Response("ok", { status: shopStatus });
  });
  try {
    await run({
      sim,
      received,
      client: createHitPayClient({
        baseUrl: `${server.url}${BASE_PATH}/v1`,
        apiKey: "sim_hitpay_api_key",
        timeoutMs: 2_000,
      }),
      shop: {
        webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
        redirectUrl: `${shop.url}/payment/success`,
      },
      setShopStatus: (status) => {
        shopStatus = status;
      },
    });
  } finally {
    await server.close();
    await shop.close();
  }
}

/** Presses a button of the checkout page, as the browser's form post does. */
function press(checkoutUrl: string, action: string, method?: string): Promise<Response> {
  const form = new URLSearchParams({ action, ...(method ? { method } : {}) });
  return fetch(checkoutUrl, { method: "POST", body: form, redirect: "manual" });
}

function create(h: Harness, referenceNumber: string) {
  return h.client.createPaymentRequest({
    amountCents: 599,
    currency: "SGD",
    referenceNumber,
    phone: "",
    paymentMethods: ["paynow_online", "grabpay_direct"],
    ...h.shop,
  });
}

Deno.test("[hitpay sim] the checkout page shows the amount, currency, methods and three buttons", async () => {
  await withShop(async (h) => {
    const request = await create(h, "order-<b>1</b>");
    const response = await fetch(request.url);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /SGD 5\.99/);
    assert.match(html, /PayNow/);
    assert.match(html, /GrabPay/);
    for (const label of ["Pay", "Fail", "Cancel"]) assert.match(html, new RegExp(`>${label}<`));
    assert.match(html, /order-&lt;b&gt;1&lt;\/b&gt;/, "the reference is escaped");
    assert.match(html, /name="viewport" content="width=device-width/);
  });
});

Deno.test("[hitpay sim] Pay sends a signed v1 webhook and redirects with status=completed", async () => {
  await withShop(async (h) => {
    const request = await create(h, "order-1");
    const response = await press(request.url, "pay", "grabpay_direct");
    assert.equal(response.status, 303);
    const back = new URL(response.headers.get("location")!);
    assert.equal(`${back.origin}${back.pathname}`, h.shop.redirectUrl);
    assert.equal(back.searchParams.get("reference"), request.id);
    assert.equal(back.searchParams.get("status"), "completed");

    const [stored] = await h.sim.awaitWebhooks();
    assert.equal(stored.webhooks[0].status, 200);
    assert.equal(h.received.length, 1);
    const event = verifyHitPayWebhook(h.received[0], FORM, SALT);
    assert.ok(event, `the webhook verifies with the salt: ${h.received[0]}`);
    assert.ok(event.kind === "payment");
    assert.deepEqual({ ...event, paymentId: "" }, {
      kind: "payment",
      version: "v1",
      paymentId: "",
      paymentRequestId: request.id,
      referenceNumber: "order-1",
      status: "completed",
      amountCents: 599,
      currency: "SGD",
    });
    assert.equal(event.paymentId, stored.payments[0].id);
    assert.equal(stored.payments[0].status, "succeeded");
    assert.equal(stored.payments[0].payment_type, "grabpay_direct");
    assert.match(h.received[0], /(^|&)phone=(&|$)/, "the empty phone is sent and signed");
    assert.equal(verifyHitPayWebhook(h.received[0], FORM, "another_salt"), null);
  });
});

Deno.test("[hitpay sim] Fail sends a failed webhook; Cancel sends none", async () => {
  await withShop(async (h) => {
    const failing = await create(h, "order-2");
    const failed = await press(failing.url, "fail");
    assert.equal(new URL(failed.headers.get("location")!).searchParams.get("status"), "failed");
    const canceling = await create(h, "order-3");
    const canceled = await press(canceling.url, "cancel");
    assert.equal(new URL(canceled.headers.get("location")!).searchParams.get("status"), "canceled");
    await h.sim.awaitWebhooks();
    assert.equal(h.received.length, 1);
    assert.deepEqual(
      [h.sim.listRequests()[0].status, h.sim.listRequests()[0].payments[0].status],
      ["failed", "failed"],
    );
    const event = verifyHitPayWebhook(h.received[0], FORM, SALT);
    assert.ok(event?.kind === "payment");
    assert.equal(event.status, "failed");
    assert.equal((await h.client.getPaymentRequest(canceling.id)).status, "pending");
  });
});

Deno.test("[hitpay sim] an expired request takes no Pay, but a payment begun in time still completes it", async () => {
  await withShop(async (h) => {
    const request = await create(h, "order-late");
    h.sim.expire(request.id);
    assert.equal((await h.client.getPaymentRequest(request.id)).status, "expired");
    assert.throws(() => h.sim.pay(request.id), /is expired, not pending/);
    assert.throws(() => h.sim.expire(request.id), /is expired, not pending/);

    h.sim.payLate(request.id);
    await h.sim.awaitWebhooks();
    const after = await h.client.getPaymentRequest(request.id);
    assert.equal(after.status, "completed");
    const fields = new URLSearchParams(h.received[0]);
    assert.equal(fields.get("status"), "completed");
    assert.equal(fields.get("reference_number"), "order-late");
    assert.throws(() => h.sim.payLate(request.id), /is completed, not pending/);
  });
});

Deno.test("[hitpay sim] levers pay without a browser, hold and resend the webhook", async () => {
  await withShop(async (h) => {
    const request = await create(h, "order-4");
    h.sim.holdWebhooks(true);
    h.sim.pay(request.id);
    await h.sim.awaitWebhooks();
    assert.equal(h.received.length, 0, "a held webhook is not sent");
    assert.equal((await h.client.getPaymentRequest(request.id)).status, "completed");
    assert.throws(() => h.sim.pay(request.id), /is completed, not pending/);

    h.setShopStatus(500);
    h.sim.resendWebhook(request.id);
    await h.sim.awaitWebhooks();
    h.setShopStatus(200);
    h.sim.resendWebhook(request.id);
    const [stored] = await h.sim.awaitWebhooks();
    assert.deepEqual(stored.webhooks.map((w) => w.status), [500, 200]);
    assert.equal(h.received.length, 2);
    assert.equal(h.received[0], h.received[1], "a resend is the same signed body");
  });
});
