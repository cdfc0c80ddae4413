// The buyer's timeline of a consumer order (src/shared/consumer-order-timeline.ts): placed, paid,
// sent to the supplier, delivered, or where it waits now, or how it ended. Read from where each
// fact is recorded: the order (created, status, last change, Needs review), the payment event that
// paid it or the admin's confirmation, the first create request to the supplier, and the stays in
// Needs review of the last 30 days (migration 0025) for how long a check usually takes. Like the
// status call, it answers anyone holding the order number, so it carries no player or buyer data.

import type { Db } from "../../db/client.ts";
import type { OrderRow } from "../../db/schema.ts";
import { findOrderById } from "../../db/repositories/orders.ts";
import { medianReviewSeconds, readOrderStepTimes } from "../../db/repositories/order-timeline.ts";
import {
  type ConsumerOrderTimeline,
  DEFAULT_USUAL_REVIEW_MINUTES,
  type TimelineEntry,
  type UsualReviewTime,
} from "../../shared/consumer-order-timeline.ts";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  FAILED,
  OPEN_AT_SUPPLIER,
  RETRYABLE_STATES,
} from "../../shared/order-lifecycle.ts";
import { NotFoundError } from "../errors.ts";
import { findRefundOfOrder } from "../../db/repositories/refunds.ts";
import { centsToDollars } from "../money.ts";
import { HITPAY, MANUAL, MANUAL_PAYMENT_CONFIRMED, PAID_OUTCOME } from "./consumer-payments.ts";

/** How far back the usual time of a check in Needs review is measured. */
const REVIEW_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** A refund of the order's payment, as the shop records it. */
export interface RefundFact {
  amountCents: number;
  at: Date;
}

/** Everything the timeline is made of, read by readConsumerOrderTimeline. */
export interface TimelineFacts {
  order: Pick<
    OrderRow,
    | "status"
    | "created_at"
    | "updated_at"
    | "review_since"
    | "supplier_order_id"
    | "payment_provider"
    | "payment_reference"
  >;
  /** When the payment was received (HitPay's word, or an admin's confirmation); null: unknown. */
  paidAt: Date | null;
  /** When the first create request went to the supplier; null: none went. */
  firstSentAt: Date | null;
  /** How long a check usually takes; read only while the order is in Needs review. */
  usualReview: UsualReviewTime | null;
  refunds: readonly RefundFact[];
}

const iso = (at: Date | null) => at === null ? null : at.toISOString();

/**
 * The timeline of `facts.order`, oldest entry first. Where the order stands comes from the
 * lifecycle's groups: awaiting payment, ended unpaid (retryable), delivered, still open at the
 * supplier, or any other end after payment (failed, and whatever later ends a paid order without
 * delivering it), which reads "not delivered" with its refunds after it.
 */
export function buildConsumerOrderTimeline(facts: TimelineFacts): ConsumerOrderTimeline {
  const { order } = facts;
  const entries: TimelineEntry[] = [{ kind: "placed", at: order.created_at.toISOString() }];
  const canCheckPayment = order.status === AWAITING_PAYMENT &&
    order.payment_provider === HITPAY && order.payment_reference !== null;
  const answer = () => ({ status: order.status, entries, canCheckPayment });
  if (order.status === AWAITING_PAYMENT) {
    entries.push({ kind: "awaiting-payment" });
    return answer();
  }
  if (RETRYABLE_STATES.includes(order.status)) {
    entries.push({ kind: "not-paid", at: order.updated_at.toISOString() });
    return answer();
  }
  entries.push({ kind: "paid", at: iso(facts.paidAt) });
  const sent = facts.firstSentAt !== null || order.supplier_order_id !== null;
  if (sent) entries.push({ kind: "sent", at: iso(facts.firstSentAt) });
  if (order.status === DELIVERED) {
    entries.push({ kind: "delivered", at: order.updated_at.toISOString() });
  } else if (OPEN_AT_SUPPLIER.includes(order.status)) {
    if (order.review_since !== null) {
      entries.push({
        kind: "in-review",
        since: order.review_since.toISOString(),
        usual: facts.usualReview ??
          { minutes: DEFAULT_USUAL_REVIEW_MINUTES, measured: false },
      });
    } else {
      entries.push({ kind: sent ? "delivering" : "sending" });
    }
  } else {
    // Failed is the move that ended it; a later change (a refund) is not when delivery stopped.
    entries.push({
      kind: "not-delivered",
      at: order.status === FAILED ? order.updated_at.toISOString() : null,
    });
    const refunds = [...facts.refunds].sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const refund of refunds) {
      entries.push({
        kind: "refunded",
        at: refund.at.toISOString(),
        amount: centsToDollars(refund.amountCents),
      });
    }
  }
  return answer();
}

/**
 * How long a check in Needs review usually takes: the median stay of the reviews that ended in
 * the 30 days before `now`, to the nearest minute (at least one), or the standing estimate when none
 * ended.
 */
export async function usualReviewTime(db: Db, now: Date = new Date()): Promise<UsualReviewTime> {
  const { seconds } = await medianReviewSeconds(db, new Date(now.getTime() - REVIEW_WINDOW_MS));
  if (seconds === null) return { minutes: DEFAULT_USUAL_REVIEW_MINUTES, measured: false };
  return { minutes: Math.max(1, Math.round(seconds / 60)), measured: true };
}

/**
 * GET /api/order/{id}/timeline: the timeline of consumer order `orderId`; not found for any other
 * number (a reseller's order included), as the status call answers.
 */
export async function readConsumerOrderTimeline(
  db: Db,
  orderId: string,
): Promise<ConsumerOrderTimeline> {
  const order = await findOrderById(db, orderId);
  if (!order || order.buyer_type !== "consumer") throw new NotFoundError("Order not found");
  const times = await readOrderStepTimes(db, order.id, {
    paidOutcome: PAID_OUTCOME,
    confirmAction: MANUAL_PAYMENT_CONFIRMED,
    manual: order.payment_provider === MANUAL,
  });
  const inReview = order.review_since !== null && OPEN_AT_SUPPLIER.includes(order.status);
  // Only a refund HitPay confirmed is shown: one still being asked for has not reached the buyer.
  const refund = await findRefundOfOrder(db, order.id);
  const refunds: RefundFact[] = refund?.status === "succeeded"
    ? [{ amountCents: refund.amount_cents, at: refund.updated_at }]
    : [];
  return buildConsumerOrderTimeline({
    order,
    paidAt: times.paidByProvider ?? times.paidByAdmin,
    firstSentAt: times.firstSent,
    usualReview: inReview ? await usualReviewTime(db) : null,
    refunds,
  });
}
