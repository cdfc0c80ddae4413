import assert from "node:assert/strict";
import {
  createHitPayClient,
  type HitPayClient,
  HitPayError,
  isHitPayRefusal,
  type PaymentRequestInput,
} from "../../src/integrations/hitpay/client.ts";
import {
  createHitPaySimulator,
  HITPAY_CREATE_ENDPOINT,
  HITPAY_REFUND_ENDPOINT,
  HITPAY_STATUS_ENDPOINT,
  type HitPaySimulator,
  REFUND_REFUSED_MESSAGE,
} from "../../src/integrations/hitpay/simulator.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const BASE_PATH = "/__sim/hitpay";
const API_KEY = "test_api_key";

const INPUT: PaymentRequestInput = {
  amountCents: 123456,
  currency: "SGD",
  referenceNumber: "order-7f3a",
  name: "Ana Cruz",
  email: "ana@example.com",
  phone: "+6591234567",
  purpose: "Mobile Legends 86 Diamonds",
  redirectUrl: "https://shop.example.com/payment/success",
  webhookUrl: "https://shop.example.com/api/payment/hitpay/webhook",
  paymentMethods: ["paynow_online", "grabpay_direct", "shopee_pay", "atome"],
};

async function withHitPay(
  run: (h: { sim: HitPaySimulator; client: HitPayClient; url: string }) => Promise<void>,
  client: { apiKey?: string; timeoutMs?: number } = {},
): Promise<void> {
  const sim = createHitPaySimulator({
    basePath: BASE_PATH,
    apiKey: API_KEY,
    knobs: { holdMs: 5_000 },
  });
  const server = startSimulatorServer(sim.handler);
  try {
    await run({
      sim,
      url: server.url,
      client: createHitPayClient({
        baseUrl: `${server.url}${BASE_PATH}/v1`,
        apiKey: client.apiKey ?? API_KEY,
        timeoutMs: client.timeoutMs ?? 2_000,
      }),
    });
  } finally {
    await server.close();
  }
}

async function hitPayError(call: Promise<unknown>): Promise<HitPayError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof HitPayError, `expected a HitPayError, got ${error}`);
    return error;
  }
  assert.fail("expected the call to throw");
}

Deno.test("[hitpay] a created payment request comes back pending with its checkout url", async () => {
  await withHitPay(async ({ sim, client, url }) => {
    const created = await client.createPaymentRequest(INPUT);
    assert.equal(created.status, "pending");
    assert.equal(created.amountCents, 123456);
    assert.equal(created.currency, "SGD");
    assert.equal(created.referenceNumber, "order-7f3a");
    assert.equal(
      created.url,
      `${url}${BASE_PATH}/payment-request/@topup-demo/${created.id}/checkout`,
    );
    const [stored] = sim.listRequests();
    // On the wire the amount went out as "1234.56" and comes back formatted by HitPay.
    assert.equal(stored.amount, "1,234.56");
    assert.deepEqual(stored.payment_methods, INPUT.paymentMethods);
    assert.equal(stored.webhook, INPUT.webhookUrl);
    assert.equal(stored.redirect_url, INPUT.redirectUrl);
    assert.equal(stored.email, "ana@example.com");
  });
});

Deno.test("[hitpay] a paid request is completed and lists its succeeded payment", async () => {
  await withHitPay(async ({ sim, client }) => {
    const created = await client.createPaymentRequest({ ...INPUT, amountCents: 99 + 1200 });
    assert.deepEqual((await client.getPaymentRequest(created.id)).payments, []);
    sim.pay(created.id, "grabpay_direct");
    const status = await client.getPaymentRequest(created.id);
    assert.equal(status.status, "completed");
    assert.equal(status.amountCents, 1299);
    assert.equal(status.payments.length, 1);
    assert.deepEqual(
      { ...status.payments[0], id: "" },
      { id: "", status: "succeeded", amountCents: 1299, currency: "SGD" },
    );
  });
});

Deno.test("[hitpay] the simulator accepts HitPay's form-encoded create with payment_methods[]", async () => {
  await withHitPay(async ({ url }) => {
    const form = new URLSearchParams([
      ["amount", "25.00"],
      ["currency", "SGD"],
      ["reference_number", "form-1"],
      ["payment_methods[]", "paynow_online"],
      ["payment_methods[]", "atome"],
    ]);
    const response = await fetch(`${url}${BASE_PATH}/v1/payment-requests`, {
      method: "POST",
      headers: { "X-BUSINESS-API-KEY": API_KEY, "X-Requested-With": "XMLHttpRequest" },
      body: form,
    });
    assert.equal(response.status, 200);
    const json = await response.json();
    assert.equal(json.amount, "25.00");
    assert.deepEqual(json.payment_methods, ["paynow_online", "atome"]);
  });
});

Deno.test("[hitpay] a wrong API key, bad input and an unknown id are typed HTTP errors", async () => {
  await withHitPay(async ({ client }) => {
    const tooSmall = await hitPayError(client.createPaymentRequest({ ...INPUT, amountCents: 29 }));
    assert.equal(tooSmall.kind, "http");
    assert.equal(tooSmall.status, 422);
    assert.match(tooSmall.message, /The amount must be between 0\.3 and 999999999\.99\./);
    const unknown = await hitPayError(client.getPaymentRequest("no-such-request"));
    assert.equal(unknown.status, 404);
  });
  await withHitPay(async ({ client }) => {
    const refused = await hitPayError(client.createPaymentRequest(INPUT));
    assert.equal(refused.status, 403);
    assert.match(refused.message, /Invalid business api key/);
  }, { apiKey: "wrong" });
});

Deno.test("[hitpay] simulator faults become timeout, http and malformed errors", async () => {
  await withHitPay(async ({ sim, client }) => {
    sim.forceNext("timeout", 1, HITPAY_CREATE_ENDPOINT);
    assert.equal((await hitPayError(client.createPaymentRequest(INPUT))).kind, "timeout");
    sim.forceNext("error", 1, HITPAY_CREATE_ENDPOINT);
    const error = await hitPayError(client.createPaymentRequest(INPUT));
    assert.equal(error.kind, "http");
    assert.equal(error.status, 500);
    const created = await client.createPaymentRequest(INPUT);
    sim.failEndpoint(HITPAY_STATUS_ENDPOINT, "malformed");
    assert.equal((await hitPayError(client.getPaymentRequest(created.id))).kind, "malformed");
    sim.clearFaults();
    assert.equal((await client.getPaymentRequest(created.id)).status, "pending");
  }, { timeoutMs: 300 });
});

Deno.test("[hitpay] latency above the client's timeout is a timeout", async () => {
  await withHitPay(async ({ sim, client }) => {
    sim.knobs.latencyMs = 1_000;
    assert.equal((await hitPayError(client.createPaymentRequest(INPUT))).kind, "timeout");
  }, { timeoutMs: 200 });
});

Deno.test("[hitpay] a request asked to expire after 30 minutes stops taking payment then", async () => {
  let clock = Date.UTC(2026, 10, 28, 4, 0, 0);
  const sim = createHitPaySimulator({ basePath: BASE_PATH, apiKey: API_KEY, now: () => clock });
  const server = startSimulatorServer(sim.handler);
  try {
    const client = createHitPayClient({
      baseUrl: `${server.url}${BASE_PATH}/v1`,
      apiKey: API_KEY,
      timeoutMs: 2_000,
    });
    const created = await client.createPaymentRequest({ ...INPUT, expiresAfterMinutes: 30 });
    const [stored] = sim.listRequests();
    assert.equal(stored.expiry_date, "2026-11-28T04:30:00");
    clock += 29 * 60_000;
    assert.equal((await client.getPaymentRequest(created.id)).status, "pending");
    clock += 60_000;
    assert.equal((await client.getPaymentRequest(created.id)).status, "expired");
    assert.throws(() => sim.pay(created.id), /expired, not pending/);
  } finally {
    await server.close();
  }
});

Deno.test("[hitpay] a refund of a paid payment succeeds, reads back the same, and shows on the payment", async () => {
  await withHitPay(async ({ sim, client }) => {
    const created = await client.createPaymentRequest(INPUT);
    sim.pay(created.id);
    const [payment] = (await client.getPaymentRequest(created.id)).payments;
    const refund = await client.createRefund({ paymentId: payment.id, amountCents: 123456 });
    assert.deepEqual({ ...refund, id: "" }, {
      id: "",
      paymentId: payment.id,
      amountCents: 123456,
      status: "succeeded",
      currency: "SGD",
    });
    assert.equal(sim.listRefunds()[0].amount_refunded, 1234.56, "a JSON number of dollars");
    assert.deepEqual(await client.getRefund(refund.id), refund);
    const after = await client.getPaymentRequest(created.id);
    assert.equal(after.status, "completed");
    assert.deepEqual(after.payments.map((p) => p.status), ["refunded"]);
  });
});

Deno.test("[hitpay] a refund HitPay refuses is a refusal with its message; faults are uncertain", async () => {
  await withHitPay(async ({ sim, client }) => {
    const created = await client.createPaymentRequest(INPUT);
    sim.pay(created.id);
    const [payment] = (await client.getPaymentRequest(created.id)).payments;
    const input = { paymentId: payment.id, amountCents: 123456 };

    sim.forceNext("error", 1, HITPAY_REFUND_ENDPOINT);
    const refused = await hitPayError(client.createRefund(input));
    assert.ok(isHitPayRefusal(refused));
    assert.equal(refused.status, 422);
    assert.equal(refused.hitpayMessage, REFUND_REFUSED_MESSAGE);

    const unknown = await hitPayError(client.createRefund({ ...input, paymentId: created.id }));
    assert.ok(isHitPayRefusal(unknown), "a request's id is not a payment's");
    assert.equal(unknown.hitpayMessage, "The selected payment id is invalid.");

    for (const fault of ["timeout", "malformed", "throttled"] as const) {
      sim.forceNext(fault, 1, HITPAY_REFUND_ENDPOINT);
      const error = await hitPayError(client.createRefund(input));
      assert.ok(!isHitPayRefusal(error), `${fault} is not a refusal`);
    }
    assert.equal(sim.listRefunds().length, 0, "none of those refunded anything");

    // "lost": HitPay makes the refund and its answer never comes.
    sim.forceNext("lost", 1, HITPAY_REFUND_ENDPOINT);
    const lost = await hitPayError(client.createRefund(input));
    assert.equal(lost.kind, "timeout");
    assert.equal(sim.listRefunds().length, 1);
    const again = await hitPayError(client.createRefund(input));
    assert.ok(isHitPayRefusal(again), "nothing is left to refund");
  }, { timeoutMs: 500 });
});
