// Recorded-answer contract tests for HitPay: the documented answers of tests/fixtures/hitpay/ go
// through the real client and webhook verifier (the client reads them correctly), and the same
// answers hold the simulator to their shape (same keys, same value types), so neither the client
// nor the simulator can drift from what HitPay documents.

import assert from "node:assert/strict";
import { createHitPayClient, HitPayError } from "../../src/integrations/hitpay/client.ts";
import { createHitPaySimulator } from "../../src/integrations/hitpay/simulator.ts";
import {
  findPaidPayment,
  PAYMENT_REQUEST_STATUSES,
  PAYMENT_STATUSES,
} from "../../src/integrations/hitpay/statuses.ts";
import { signHitPayV2, verifyHitPayWebhook } from "../../src/integrations/hitpay/webhook.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";
import { CREATE_PAYMENT_REQUEST_ANSWER } from "../fixtures/hitpay/create-payment-request.ts";
import { PAID_PAYMENT_REQUEST_ANSWER } from "../fixtures/hitpay/get-payment-request.ts";
import { REFUND_ANSWER } from "../fixtures/hitpay/refund.ts";
import {
  INVALID_PAYMENT_METHODS_ANSWER,
  INVALID_PAYMENT_METHODS_STATUS,
} from "../fixtures/hitpay/invalid-payment-methods.ts";
import {
  V1_WEBHOOK_BODY,
  V1_WEBHOOK_FIELDS,
  V1_WEBHOOK_HMAC,
  V1_WEBHOOK_SALT,
} from "../fixtures/hitpay/webhook-v1.ts";
import { V2_CHARGE_EVENT, V2_PAYMENT_REQUEST_EVENT } from "../fixtures/hitpay/webhook-v2.ts";
import { assertSameWireShape } from "../helpers/wire-shape.ts";

const API_KEY = "contract_api_key";
const BASE_PATH = "/__sim/hitpay";
const FORM = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });

/** What the shop asks for when it creates the documented example's request. */
const EXAMPLE_INPUT = {
  amountCents: 1000,
  currency: "SGD" as const,
  referenceNumber: "1747817845",
  name: "Harvey Friesen",
  email: "test@gmail.com",
  phone: "+65489505050",
  purpose: "Purpose_1747817845",
  redirectUrl: "https://google.com",
  webhookUrl: "https://webhook.site/8cbdef58-cd15-441a-986d-9446235223ea",
  paymentMethods: ["card"],
};

/**
 * Paths of the recorded answers the simulator leaves out: echoes of inputs the shop never sends
 * (an address, metadata, a business location) and HitPay's internal `executor_id`.
 */
const NOT_MODELLED = ["$.address", "$.metadata", "$.location", "$.executor_id"];
/** Documented as optional (nullable in the schema); the examples set them, the shop does not. */
const UNSET_BY_THE_SHOP = ["$.expiry_date", "$.staff_id", "$.business_location_id"];

/** A HitPay that answers every call with one recorded answer; the requests it got are kept. */
async function withRecordedHitPay(
  answer: { status: number; body: unknown },
  run: (client: ReturnType<typeof createHitPayClient>, received: Request[]) => Promise<void>,
): Promise<void> {
  const received: Request[] = [];
  const server = startSimulatorServer((request) => {
    received.push(request);
    return Promise.resolve(Response.json(answer.body, { status: answer.status }));
  });
  try {
    await run(
      createHitPayClient({ baseUrl: `${server.url}/v1`, apiKey: API_KEY, timeoutMs: 2_000 }),
      received,
    );
  } finally {
    await server.close();
  }
}

Deno.test("[hitpay contract] the client reads HitPay's documented create answer", async () => {
  await withRecordedHitPay({ status: 200, body: CREATE_PAYMENT_REQUEST_ANSWER }, async (client) => {
    assert.deepEqual(await client.createPaymentRequest(EXAMPLE_INPUT), {
      id: "9ef68e2e-3569-4f69-9f68-04c7e4bb007c",
      url: CREATE_PAYMENT_REQUEST_ANSWER.url,
      status: "pending",
      amountCents: 1000,
      currency: "SGD",
      referenceNumber: "1747817845",
    });
  });
});

Deno.test("[hitpay contract] the client reads a status answer's failed and succeeded payments", async () => {
  await withRecordedHitPay(
    { status: 200, body: PAID_PAYMENT_REQUEST_ANSWER },
    async (client, received) => {
      const status = await client.getPaymentRequest(PAID_PAYMENT_REQUEST_ANSWER.id);
      assert.equal(
        new URL(received[0].url).pathname,
        `/v1/payment-requests/${PAID_PAYMENT_REQUEST_ANSWER.id}`,
      );
      assert.equal(received[0].headers.get("X-BUSINESS-API-KEY"), API_KEY);
      assert.equal(status.status, "completed");
      assert.deepEqual(status.payments, [
        {
          id: "9ef68f10-1c2b-4d3e-8f40-5a6b7c8d9e01",
          status: "failed",
          amountCents: 1000,
          currency: "SGD",
        },
        {
          id: "9ef68f5a-7d8e-4f90-a1b2-c3d4e5f60718",
          status: "succeeded",
          amountCents: 1000,
          currency: "SGD",
        },
      ]);
      assert.deepEqual(findPaidPayment(status), {
        id: "9ef68f5a-7d8e-4f90-a1b2-c3d4e5f60718",
        amountCents: 1000,
        currency: "SGD",
      });
    },
  );
});

Deno.test("[hitpay contract] paid means a succeeded payment, never a completed request alone", async () => {
  const [failed, succeeded] = PAID_PAYMENT_REQUEST_ANSWER.payments;
  const paid: (string | null)[] = [];
  const read = (body: unknown) =>
    withRecordedHitPay({ status: 200, body }, async (client) => {
      const status = await client.getPaymentRequest(PAID_PAYMENT_REQUEST_ANSWER.id);
      paid.push(findPaidPayment(status)?.id ?? null);
    });
  await read({ ...PAID_PAYMENT_REQUEST_ANSWER, status: "pending", payments: [failed] });
  await read({
    ...PAID_PAYMENT_REQUEST_ANSWER,
    status: "pending",
    payments: [failed, { ...succeeded, status: "succeeded_manually" }],
  });
  // A request stays "completed" after its payment is refunded or voided in HitPay's dashboard.
  await read({ ...PAID_PAYMENT_REQUEST_ANSWER, payments: [failed] });
  await read({ ...PAID_PAYMENT_REQUEST_ANSWER, payments: [{ ...succeeded, status: "refunded" }] });
  await read({ ...PAID_PAYMENT_REQUEST_ANSWER, payments: [{ ...succeeded, status: "void" }] });
  await read({
    ...PAID_PAYMENT_REQUEST_ANSWER,
    status: "pending",
    payments: [{ ...succeeded, status: "completed" }, { ...succeeded, status: "refunded" }],
  });
  assert.deepEqual(paid, [null, succeeded.id, null, null, null, null]);
});

Deno.test("[hitpay contract] HitPay's 422 for an unknown method code reaches the caller", async () => {
  await withRecordedHitPay(
    { status: INVALID_PAYMENT_METHODS_STATUS, body: INVALID_PAYMENT_METHODS_ANSWER },
    async (client) => {
      await assert.rejects(
        client.createPaymentRequest({ ...EXAMPLE_INPUT, paymentMethods: ["grabpay"] }),
        (error: unknown) => {
          assert.ok(error instanceof HitPayError);
          assert.equal(error.kind, "http");
          assert.equal(error.status, 422);
          assert.match(error.message, /The selected payment methods is invalid\./);
          return true;
        },
      );
    },
  );
});

Deno.test("[hitpay contract] the documented v1 webhook verifies and reads as a paid payment", () => {
  assert.deepEqual(verifyHitPayWebhook(V1_WEBHOOK_BODY, FORM, V1_WEBHOOK_SALT), {
    kind: "payment",
    version: "v1",
    paymentId: V1_WEBHOOK_FIELDS.payment_id,
    paymentRequestId: V1_WEBHOOK_FIELDS.payment_request_id,
    referenceNumber: "ABC123",
    status: "completed",
    amountCents: 59900,
    currency: "SGD",
  });
  assert.equal(verifyHitPayWebhook(V1_WEBHOOK_BODY, FORM, "another_salt"), null);
});

Deno.test("[hitpay contract] the documented v2 events verify: a payment request's, a charge's", () => {
  const salt = "v2_salt";
  const signed = (event: { headers: Record<string, string>; body: string }) =>
    new Headers({ ...event.headers, "Hitpay-Signature": signHitPayV2(event.body, salt) });
  assert.deepEqual(
    verifyHitPayWebhook(V2_PAYMENT_REQUEST_EVENT.body, signed(V2_PAYMENT_REQUEST_EVENT), salt),
    {
      kind: "payment",
      version: "v2",
      paymentId: "pay_abc123",
      paymentRequestId: "9ef68e2e-3569-4f69-9f68-04c7e4bb007c",
      referenceNumber: "ORDER-12345",
      status: "completed",
      amountCents: 10000,
      currency: "SGD",
    },
  );
  assert.deepEqual(verifyHitPayWebhook(V2_CHARGE_EVENT.body, signed(V2_CHARGE_EVENT), salt), {
    kind: "unhandled",
    version: "v2",
    object: "charge",
    eventType: "created",
  });
  assert.equal(
    verifyHitPayWebhook(V2_CHARGE_EVENT.body, signed(V2_CHARGE_EVENT), "another_salt"),
    null,
  );
});

/** A simulator on a local port, a shop that records its webhooks, and raw API calls. */
async function withSimulator(
  run: (h: {
    post(body: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
    get(id: string): Promise<Record<string, unknown>>;
    /** Any API call: `path` after /v1/. */
    api(
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; json: Record<string, unknown> }>;
    sim: ReturnType<typeof createHitPaySimulator>;
    webhookUrl: string;
    webhooks: string[];
  }) => Promise<void>,
  options: { sandbox?: boolean } = {},
): Promise<void> {
  const sim = createHitPaySimulator({ basePath: BASE_PATH, apiKey: API_KEY, ...options });
  const server = startSimulatorServer(sim.handler);
  const webhooks: string[] = [];
  const shop = startSimulatorServer(async (request) => {
    webhooks.push(await request.text());
    return new Response("ok");
  });
  const headers = { "X-BUSINESS-API-KEY": API_KEY, "Content-Type": "application/json" };
  try {
    await run({
      sim,
      webhooks,
      webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
      async post(body) {
        const r = await fetch(`${server.url}${BASE_PATH}/v1/payment-requests`, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        });
        return { status: r.status, json: await r.json() };
      },
      async get(id) {
        const r = await fetch(`${server.url}${BASE_PATH}/v1/payment-requests/${id}`, { headers });
        assert.equal(r.status, 200);
        return await r.json();
      },
      async api(method, path, body) {
        const r = await fetch(`${server.url}${BASE_PATH}/v1/${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: r.status, json: await r.json() };
      },
    });
  } finally {
    await server.close();
    await shop.close();
  }
}

/** The JSON body the client sends for EXAMPLE_INPUT, with `overrides`. */
function createBody(webhookUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    amount: "10.00",
    currency: "SGD",
    reference_number: EXAMPLE_INPUT.referenceNumber,
    redirect_url: EXAMPLE_INPUT.redirectUrl,
    webhook: webhookUrl,
    payment_methods: ["paynow_online", "grabpay_direct", "shopee_pay", "atome"],
    name: EXAMPLE_INPUT.name,
    email: EXAMPLE_INPUT.email,
    phone: EXAMPLE_INPUT.phone,
    purpose: EXAMPLE_INPUT.purpose,
    ...overrides,
  };
}

Deno.test("[hitpay contract] the simulator's create and status answers have HitPay's shape", async () => {
  await withSimulator(async ({ post, get, sim, webhookUrl }) => {
    const created = await post(createBody(webhookUrl));
    assert.equal(created.status, 200);
    assertSameWireShape(created.json, CREATE_PAYMENT_REQUEST_ANSWER, {
      optional: NOT_MODELLED,
      nullable: UNSET_BY_THE_SHOP,
    });
    const failing = await post(createBody(webhookUrl));
    sim.pay(created.json.id as string);
    sim.fail(failing.json.id as string);
    for (const id of [created.json.id, failing.json.id]) {
      const status = await get(id as string);
      assertSameWireShape(status, PAID_PAYMENT_REQUEST_ANSWER, {
        optional: NOT_MODELLED,
        nullable: UNSET_BY_THE_SHOP,
      });
      assert.ok(PAYMENT_REQUEST_STATUSES.some((s) => s === status.status), String(status.status));
    }
    const paid = await get(created.json.id as string);
    assert.equal(paid.status, "completed");
    const payments = paid.payments as { status: string; amount: string }[];
    assert.deepEqual(payments.map((p) => [p.status, p.amount]), [["succeeded", "10.00"]]);
    const failed = (await get(failing.json.id as string)).payments as { status: string }[];
    assert.deepEqual(failed.map((p) => p.status), ["failed"]);
    assert.ok(
      [...payments, ...failed].every((p) => PAYMENT_STATUSES.some((s) => s === p.status)),
      "payments[].status is one of HitPay's payment statuses",
    );
  });
});

Deno.test("[hitpay contract] the simulator's refund answers as HitPay's; its request stays completed", async () => {
  await withSimulator(async ({ post, get, api, sim, webhookUrl }) => {
    const created = await post(createBody(webhookUrl));
    const requestId = created.json.id as string;
    sim.pay(requestId);
    const [payment] = (await get(requestId)).payments as { id: string }[];
    const refused = await api("POST", "refund", { payment_id: requestId, amount: 10 });
    assert.equal(refused.status, 422, "a payment request's id is not a payment's");

    const part = await api("POST", "refund", { payment_id: payment.id, amount: 2.5 });
    assert.equal(part.status, 200, JSON.stringify(part.json));
    assertSameWireShape(part.json, REFUND_ANSWER, { nullable: ["provider_fee"] });
    assert.deepEqual(
      [part.json.payment_id, part.json.amount_refunded, part.json.total_amount, part.json.status],
      [payment.id, 2.5, 10, "succeeded"],
    );
    const partly = await get(requestId);
    assert.equal(partly.status, "completed");
    assert.deepEqual(
      (partly.payments as { status: string; refunded_amount: string }[])
        .map((p) => [p.status, p.refunded_amount]),
      [["partially_refunded", "2.50"]],
    );
    const tooMuch = await api("POST", "refund", { payment_id: payment.id, amount: 7.51 });
    assert.equal(tooMuch.status, 422);
    const rest = await api("POST", "refund", { payment_id: payment.id, amount: 7.5 });
    assert.equal(rest.status, 200);
    const refunded = await get(requestId);
    assert.equal(refunded.status, "completed", "HitPay has no refunded status for a request");
    assert.deepEqual(
      (refunded.payments as { status: string }[]).map((p) => p.status),
      ["refunded"],
    );
    assert.deepEqual(await api("GET", `refund/${rest.json.id}`), { status: 200, json: rest.json });
  });
});

Deno.test("[hitpay contract] the simulator refuses an unknown method code with HitPay's 422", async () => {
  await withSimulator(async ({ post, webhookUrl }) => {
    for (const code of ["grabpay", "shopback_paylater"]) {
      const refused = await post(
        createBody(webhookUrl, { payment_methods: ["paynow_online", code] }),
      );
      assert.equal(refused.status, INVALID_PAYMENT_METHODS_STATUS, code);
      assert.deepEqual(refused.json, INVALID_PAYMENT_METHODS_ANSWER);
    }
    const documented = await post(
      createBody(webhookUrl, { payment_methods: ["grabpay_direct", "shopback", "card"] }),
    );
    assert.equal(documented.status, 200);
  });
});

Deno.test("[hitpay contract] the sandbox simulator offers only card, paynow_online and Atome", async () => {
  await withSimulator(async ({ post, webhookUrl }) => {
    const live = await post(createBody(webhookUrl));
    assert.equal(live.status, INVALID_PAYMENT_METHODS_STATUS);
    assert.deepEqual(live.json, INVALID_PAYMENT_METHODS_ANSWER);
    const sandbox = await post(
      createBody(webhookUrl, { payment_methods: ["card", "paynow_online", "atome", "atome_qr"] }),
    );
    assert.equal(sandbox.status, 200);
  }, { sandbox: true });
});

Deno.test("[hitpay contract] the simulator's v1 webhook has the documented fields", async () => {
  await withSimulator(async ({ post, sim, webhooks, webhookUrl }) => {
    const created = await post(createBody(webhookUrl, { phone: "" }));
    sim.pay(created.json.id as string);
    await sim.awaitWebhooks();
    assert.equal(webhooks.length, 1);
    const fields = Object.fromEntries(new URLSearchParams(webhooks[0]));
    assertSameWireShape(fields, { ...V1_WEBHOOK_FIELDS, hmac: V1_WEBHOOK_HMAC });
    assert.equal(fields.status, "completed");
    assert.equal(fields.amount, "10.00");
    assert.equal(fields.currency, "SGD");
    assert.equal(fields.phone, "");
  });
});
