import assert from "node:assert/strict";
import {
  signHitPayV1,
  signHitPayV2,
  verifyHitPayWebhook,
} from "../../src/integrations/hitpay/webhook.ts";
import {
  V1_WEBHOOK_BODY as DOC_BODY,
  V1_WEBHOOK_FIELDS as DOC_FIELDS,
  V1_WEBHOOK_HMAC as DOC_HMAC,
  V1_WEBHOOK_SALT as SALT,
} from "../fixtures/hitpay/webhook-v1.ts";

// The docs' example v1 body (signed with the worked example's made-up salt) is read in full by
// tests/integrations/hitpay-contract_test.ts; these tests take it apart.
const FORM = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });

/** The body with the byte at `index` changed to another character. */
function flipByte(body: string, index: number): string {
  const replacement = body[index] === "0" ? "1" : "0";
  return body.slice(0, index) + replacement + body.slice(index + 1);
}

Deno.test("[hitpay] v1 hmac of the docs' example fields is the worked example's", () => {
  assert.equal(signHitPayV1(DOC_FIELDS, SALT), DOC_HMAC);
  assert.equal(signHitPayV1({ ...DOC_FIELDS, hmac: "ignored" }, SALT), DOC_HMAC);
});

Deno.test("[hitpay] v1 signs empty fields too: dropping phone= changes the hmac", () => {
  const { phone: _phone, ...withoutPhone } = DOC_FIELDS;
  assert.notEqual(signHitPayV1(withoutPhone, SALT), DOC_HMAC);
  const body = DOC_BODY.replace("&phone=", "");
  assert.equal(verifyHitPayWebhook(body, FORM, SALT), null);
});

Deno.test("[hitpay] a v1 webhook with any one byte flipped is refused", () => {
  for (let i = 0; i < DOC_BODY.length; i++) {
    const tampered = flipByte(DOC_BODY, i);
    if (tampered === DOC_BODY) continue;
    assert.equal(verifyHitPayWebhook(tampered, FORM, SALT), null, `byte ${i} flipped`);
  }
});

Deno.test("[hitpay] a v1 webhook is refused with another salt, without hmac, or with a key twice", () => {
  assert.equal(verifyHitPayWebhook(DOC_BODY, FORM, "other_salt"), null);
  assert.equal(verifyHitPayWebhook(DOC_BODY, FORM, ""), null);
  assert.equal(verifyHitPayWebhook(DOC_BODY.replace(/&hmac=.*$/, ""), FORM, SALT), null);
  assert.equal(verifyHitPayWebhook(`${DOC_BODY}&amount=1.00`, FORM, SALT), null);
  assert.equal(verifyHitPayWebhook(`amount=1.00&${DOC_BODY}`, FORM, SALT), null);
});

Deno.test("[hitpay] a signed v1 body missing a payment field is not a payment event", () => {
  const { reference_number: _reference, ...fields } = DOC_FIELDS;
  const body = new URLSearchParams({ ...fields, hmac: signHitPayV1(fields, SALT) }).toString();
  assert.equal(verifyHitPayWebhook(body, FORM, SALT), null);
});

Deno.test("[hitpay] a v1 amount with a thousands comma reads as exact cents", () => {
  const fields = { ...DOC_FIELDS, amount: "1,234.50", currency: "sgd" };
  const body = new URLSearchParams({ ...fields, hmac: signHitPayV1(fields, SALT) }).toString();
  const event = verifyHitPayWebhook(body, FORM, SALT);
  assert.ok(event?.kind === "payment");
  assert.equal(event.amountCents, 123450);
  assert.equal(event.currency, "SGD");
});

const V2_BODY = JSON.stringify({
  id: "9ef68e2e-3569-4f69-9f68-04c7e4bb007c",
  amount: "100.00",
  currency: "sgd",
  status: "completed",
  reference_number: "ORDER-12345",
  payments: [{ id: "pay_abc123", amount: "100.00", currency: "sgd", status: "succeeded" }],
});

function v2Headers(signature: string, object = "payment_request"): Headers {
  return new Headers({
    "Content-Type": "application/json",
    "Hitpay-Signature": signature,
    "Hitpay-Event-Type": "completed",
    "Hitpay-Event-Object": object,
    "User-Agent": "HitPay v2.0",
  });
}

Deno.test("[hitpay] a v2 JSON webhook verifies with Hitpay-Signature over the raw body", () => {
  const signature = signHitPayV2(V2_BODY, SALT);
  assert.match(signature, /^[0-9a-f]{64}$/);
  assert.deepEqual(verifyHitPayWebhook(V2_BODY, v2Headers(signature), SALT), {
    kind: "payment",
    version: "v2",
    paymentId: "pay_abc123",
    paymentRequestId: "9ef68e2e-3569-4f69-9f68-04c7e4bb007c",
    referenceNumber: "ORDER-12345",
    status: "completed",
    amountCents: 10000,
    currency: "SGD",
  });
});

Deno.test("[hitpay] a v2 webhook is refused when one byte or the signature differs", () => {
  const signature = signHitPayV2(V2_BODY, SALT);
  for (let i = 0; i < V2_BODY.length; i++) {
    const tampered = flipByte(V2_BODY, i);
    assert.equal(verifyHitPayWebhook(tampered, v2Headers(signature), SALT), null, `byte ${i}`);
  }
  // Re-serialising changes the bytes even when the data is the same.
  const reformatted = JSON.stringify(JSON.parse(V2_BODY), null, 1);
  assert.equal(verifyHitPayWebhook(reformatted, v2Headers(signature), SALT), null);
  assert.equal(verifyHitPayWebhook(V2_BODY, v2Headers(flipByte(signature, 5)), SALT), null);
  assert.equal(verifyHitPayWebhook(V2_BODY, v2Headers(""), SALT), null);
});

Deno.test("[hitpay] a signed v2 event about another object is verified but not a payment event", () => {
  const signature = signHitPayV2(V2_BODY, SALT);
  assert.deepEqual(verifyHitPayWebhook(V2_BODY, v2Headers(signature, "payout"), SALT), {
    kind: "unhandled",
    version: "v2",
    object: "payout",
    eventType: "completed",
  });
  assert.equal(
    verifyHitPayWebhook(V2_BODY, v2Headers(flipByte(signature, 5), "payout"), SALT),
    null,
  );
  const notJson = "not json";
  assert.equal(verifyHitPayWebhook(notJson, v2Headers(signHitPayV2(notJson, SALT)), SALT), null);
});
