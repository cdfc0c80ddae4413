// The buyer's timeline of a consumer order: which entries it shows, in which order, for each place
// an order can be in, and the words the result page reads them with.
import assert from "node:assert/strict";
import {
  buildConsumerOrderTimeline,
  type TimelineFacts,
} from "../../src/domain/payments/consumer-order-timeline.ts";
import {
  DEFAULT_USUAL_REVIEW_MINUTES,
  durationText,
  IN_REVIEW_TEXT,
  type TimelineEntry,
  timelineLines,
  usualReviewText,
} from "../../src/shared/consumer-order-timeline.ts";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  FAILED,
  PAYMENT_EXPIRED,
  PAYMENT_RECEIVED,
} from "../../src/shared/order-lifecycle.ts";

const PLACED = new Date("2026-03-02T02:00:00Z");
const PAID = new Date("2026-03-02T02:03:00Z");
const SENT = new Date("2026-03-02T02:03:05Z");
const LAST = new Date("2026-03-02T02:10:00Z");

function facts(
  order: Partial<TimelineFacts["order"]>,
  rest: Partial<Omit<TimelineFacts, "order">> = {},
): TimelineFacts {
  return {
    order: {
      status: PAYMENT_RECEIVED,
      created_at: PLACED,
      updated_at: LAST,
      review_since: null,
      supplier_order_id: null,
      payment_provider: "hitpay",
      payment_reference: "req-1",
      ...order,
    },
    paidAt: PAID,
    firstSentAt: null,
    usualReview: null,
    refunds: [],
    ...rest,
  };
}

const kinds = (entries: TimelineEntry[]) => entries.map((e) => e.kind);

/** The lines as the page reads them, with instants as they are and amounts as "$x.xx". */
const lines = (entries: TimelineEntry[]) =>
  timelineLines(entries, (at) => at, (amount) => `$${amount.toFixed(2)}`);

Deno.test("[timeline] an order awaiting payment shows it placed and waiting for the payment", () => {
  const timeline = buildConsumerOrderTimeline(
    facts({ status: AWAITING_PAYMENT }, { paidAt: null }),
  );
  assert.deepEqual(timeline.entries, [
    { kind: "placed", at: PLACED.toISOString() },
    { kind: "awaiting-payment" },
  ]);
  assert.equal(timeline.canCheckPayment, true, "a HitPay request can be asked about");
  assert.deepEqual(lines(timeline.entries).map((l) => [l.label, l.state]), [
    ["Order placed", "done"],
    ["Waiting for your payment", "current"],
  ]);
});

Deno.test("[timeline] only a HitPay order awaiting payment offers I have paid", () => {
  const manual = facts({ status: AWAITING_PAYMENT, payment_provider: "manual" }, { paidAt: null });
  assert.equal(buildConsumerOrderTimeline(manual).canCheckPayment, false);
  const noRequest = facts({ status: AWAITING_PAYMENT, payment_reference: null }, { paidAt: null });
  assert.equal(buildConsumerOrderTimeline(noRequest).canCheckPayment, false);
  assert.equal(buildConsumerOrderTimeline(facts({})).canCheckPayment, false, "paid already");
});

Deno.test("[timeline] a payment that ended unpaid reads Not paid, at its last change", () => {
  const timeline = buildConsumerOrderTimeline(facts({ status: PAYMENT_EXPIRED }, { paidAt: null }));
  assert.deepEqual(timeline.entries, [
    { kind: "placed", at: PLACED.toISOString() },
    { kind: "not-paid", at: LAST.toISOString() },
  ]);
  assert.equal(lines(timeline.entries)[1].state, "stopped");
});

Deno.test("[timeline] a paid order not yet sent shows paid, then being sent", () => {
  const timeline = buildConsumerOrderTimeline(facts({}));
  assert.deepEqual(timeline.entries, [
    { kind: "placed", at: PLACED.toISOString() },
    { kind: "paid", at: PAID.toISOString() },
    { kind: "sending" },
  ]);
  assert.deepEqual(lines(timeline.entries).map((l) => l.label), [
    "Order placed",
    "Paid",
    "Being sent to the supplier",
  ]);
});

Deno.test("[timeline] a sent order shows when it went to the supplier, then waits for delivery", () => {
  const timeline = buildConsumerOrderTimeline(facts({}, { firstSentAt: SENT }));
  assert.deepEqual(kinds(timeline.entries), ["placed", "paid", "sent", "delivering"]);
  assert.equal(timeline.entries[2].kind === "sent" && timeline.entries[2].at, SENT.toISOString());
  assert.deepEqual(lines(timeline.entries).slice(2).map((l) => [l.label, l.state]), [
    ["Sent to the supplier", "done"],
    ["Waiting for the supplier to deliver", "current"],
  ]);
});

Deno.test("[timeline] a delivered order has every step with its time, delivery last", () => {
  const timeline = buildConsumerOrderTimeline(
    facts({ status: DELIVERED, supplier_order_id: "ED-1" }, { firstSentAt: SENT }),
  );
  assert.deepEqual(timeline.entries, [
    { kind: "placed", at: PLACED.toISOString() },
    { kind: "paid", at: PAID.toISOString() },
    { kind: "sent", at: SENT.toISOString() },
    { kind: "delivered", at: LAST.toISOString() },
  ]);
  assert.ok(lines(timeline.entries).every((l) => l.state === "done" && l.at !== null));
});

Deno.test("[timeline] a failed order reads Not delivered when it failed, then each refund", () => {
  const failed = buildConsumerOrderTimeline(facts({ status: FAILED }, { firstSentAt: SENT }));
  assert.deepEqual(kinds(failed.entries), ["placed", "paid", "sent", "not-delivered"]);
  assert.deepEqual(failed.entries[3], { kind: "not-delivered", at: LAST.toISOString() });
  assert.equal(lines(failed.entries)[3].label, "Not delivered");

  const refundedAt = new Date("2026-03-03T04:00:00Z");
  const refunded = buildConsumerOrderTimeline(
    facts({ status: FAILED }, {
      firstSentAt: SENT,
      refunds: [{ amountCents: 1299, at: refundedAt }],
    }),
  );
  assert.deepEqual(refunded.entries.at(-1), {
    kind: "refunded",
    at: refundedAt.toISOString(),
    amount: 12.99,
  });
  assert.equal(
    lines(refunded.entries).at(-1)!.label,
    `Refunded $12.99 on ${refundedAt.toISOString()}`,
  );
});

Deno.test("[timeline] an order in Needs review says it is being checked, and how long that takes", () => {
  const since = new Date("2026-03-02T02:05:00Z");
  const measured = buildConsumerOrderTimeline(
    facts({ review_since: since }, {
      firstSentAt: SENT,
      usualReview: { minutes: 95, measured: true },
    }),
  );
  assert.deepEqual(kinds(measured.entries), ["placed", "paid", "sent", "in-review"]);
  const line = lines(measured.entries)[3];
  assert.equal(line.label, IN_REVIEW_TEXT);
  assert.equal(line.label, "We are checking this order with the supplier");
  assert.equal(line.state, "current");
  assert.equal(
    line.detail,
    "Usually within 2 hours (the typical time over the last 30 days). " +
      `Checking since ${since.toISOString()}.`,
  );

  // No review ended lately: the standing estimate, and the text says it is one.
  const estimated = buildConsumerOrderTimeline(facts({ review_since: since }));
  const entry = estimated.entries.at(-1)!;
  assert.deepEqual(entry, {
    kind: "in-review",
    since: since.toISOString(),
    usual: { minutes: DEFAULT_USUAL_REVIEW_MINUTES, measured: false },
  });
  assert.match(lines(estimated.entries).at(-1)!.detail, /^Usually within 4 hours \(our standard/);
});

Deno.test("[timeline] the usual time is rounded up to what a buyer reads", () => {
  assert.equal(durationText(1), "5 minutes");
  assert.equal(durationText(41), "45 minutes");
  assert.equal(durationText(56), "1 hour");
  assert.equal(durationText(61), "2 hours");
  assert.equal(durationText(47 * 60), "47 hours");
  assert.equal(durationText(49 * 60), "3 days");
  assert.equal(
    usualReviewText({ minutes: 120, measured: true }),
    "Usually within 2 hours (the typical time over the last 30 days).",
  );
  assert.equal(
    usualReviewText({ minutes: 120, measured: false }),
    "Usually within 2 hours (our standard estimate).",
  );
});
