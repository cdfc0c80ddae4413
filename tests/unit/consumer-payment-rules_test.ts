import assert from "node:assert/strict";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  type PayableOrder,
  PAYMENT_CANCELLED,
  PAYMENT_EXPIRED,
  PAYMENT_FAILED,
  PAYMENT_RECEIVED,
  paymentEffect,
  type PaymentReport,
  RETRYABLE_STATES,
} from "../../src/domain/payments/consumer-states.ts";

const order: PayableOrder = {
  status: AWAITING_PAYMENT,
  buyer_type: "consumer",
  amount_cents: 1234,
  payment_provider: "hitpay",
  payment_reference: "req-1",
};
const completed: PaymentReport = {
  provider: "hitpay",
  paymentRequestId: "req-1",
  status: "completed",
  amountCents: 1234,
  currency: "SGD",
};

Deno.test("[payment rules] a matching completed payment pays an order awaiting payment", () => {
  assert.deepEqual(paymentEffect(order, completed), { kind: "pay" });
});

Deno.test("[payment rules] amount, currency or request mismatches are refused", () => {
  const refusal = (o: PayableOrder | undefined, r: PaymentReport) => {
    const effect = paymentEffect(o, r);
    assert.equal(effect.kind, "refuse");
    return effect.kind === "refuse" ? effect.reason : "";
  };
  assert.match(refusal(order, { ...completed, amountCents: 1235 }), /amount/);
  assert.match(refusal(order, { ...completed, amountCents: 1233 }), /amount/);
  assert.match(refusal(order, { ...completed, currency: "USD" }), /currency/);
  assert.match(refusal(order, { ...completed, paymentRequestId: "req-2" }), /payment request/);
});

Deno.test("[payment rules] a payment that is none of our consumer orders' is foreign, not refused", () => {
  for (
    const other of [undefined, { ...order, buyer_type: "reseller" }, {
      ...order,
      payment_provider: "manual",
    }]
  ) {
    assert.deepEqual(paymentEffect(other, completed), { kind: "foreign" });
  }
});

Deno.test("[payment rules] states only move forward: later reports are recorded only", () => {
  for (const status of [PAYMENT_RECEIVED, DELIVERED, "error", "refunded"] as const) {
    assert.equal(paymentEffect({ ...order, status }, completed).kind, "record");
    assert.equal(
      paymentEffect({ ...order, status }, { ...completed, status: "failed" }).kind,
      "record",
    );
  }
  assert.equal(paymentEffect(order, { ...completed, status: "pending" }).kind, "record");
});

Deno.test("[payment rules] a payment that ended unpaid gets its own state, and a completion still pays it", () => {
  assert.deepEqual(paymentEffect(order, { ...completed, status: "failed" }), {
    kind: "unpaid",
    status: PAYMENT_FAILED,
  });
  assert.deepEqual(paymentEffect(order, { ...completed, status: "expired" }), {
    kind: "unpaid",
    status: PAYMENT_EXPIRED,
  });
  assert.deepEqual(paymentEffect(order, { ...completed, status: "canceled" }), {
    kind: "unpaid",
    status: PAYMENT_CANCELLED,
  });
  for (const status of [PAYMENT_FAILED, PAYMENT_CANCELLED, PAYMENT_EXPIRED] as const) {
    assert.equal(
      paymentEffect({ ...order, status }, { ...completed, status: "failed" }).kind,
      "record",
    );
    assert.ok(RETRYABLE_STATES.includes(status), `${status} offers Try again`);
  }
  for (const status of [PAYMENT_FAILED, PAYMENT_CANCELLED] as const) {
    assert.deepEqual(paymentEffect({ ...order, status }, completed), { kind: "pay" });
  }
  assert.ok(!RETRYABLE_STATES.includes(AWAITING_PAYMENT), "an order still payable is not retried");
});

Deno.test("[payment rules] a completion after the order expired or was cancelled is late: refunded, never paid", () => {
  const expired = paymentEffect({ ...order, status: PAYMENT_EXPIRED }, completed);
  assert.equal(expired.kind, "late");
  assert.match(expired.kind === "late" ? expired.reason : "", /payment time ran out/);
  const cancelled = paymentEffect({ ...order, status: "cancelled" }, completed);
  assert.equal(cancelled.kind, "late");
  assert.match(cancelled.kind === "late" ? cancelled.reason : "", /cancelled/);
  // Only a completion is late; a failure reported on an expired order changes nothing.
  assert.equal(
    paymentEffect({ ...order, status: PAYMENT_EXPIRED }, { ...completed, status: "expired" }).kind,
    "record",
  );
  // Still checked against the order first: a wrong amount is refused, not refunded.
  assert.equal(
    paymentEffect({ ...order, status: PAYMENT_EXPIRED }, { ...completed, amountCents: 1 }).kind,
    "refuse",
  );
});

Deno.test("[payment rules] a report before the payment request id is stored asks for a retry", () => {
  assert.deepEqual(paymentEffect({ ...order, payment_reference: null }, completed), {
    kind: "retry",
  });
  assert.equal(
    paymentEffect({ ...order, status: "cancelled", payment_reference: null }, completed).kind,
    "refuse",
  );
});
