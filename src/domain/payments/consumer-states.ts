// The rule that decides what a payment event may do to a consumer order (its states and moves are
// the lifecycle table's, src/shared/order-lifecycle.ts). Pure: the webhook, the reconciliation and
// the tests all ask these functions, and each allowed move is then one conditional UPDATE.

import {
  HITPAY_PAID,
  type HitPayEndedUnpaid,
  isEndedUnpaid,
} from "../../integrations/hitpay/statuses.ts";
import {
  AWAITING_PAYMENT,
  type ConsumerOrderState,
  type OrderStatus,
  PAYABLE_STATES,
  PAYMENT_CANCELLED,
  PAYMENT_EXPIRED,
  PAYMENT_FAILED,
  TOO_LATE_STATES,
} from "../../shared/order-lifecycle.ts";

export {
  AWAITING_PAYMENT,
  CANCELLED,
  DELIVERED,
  FAILED,
  PAYABLE_STATES,
  PAYMENT_CANCELLED,
  PAYMENT_EXPIRED,
  PAYMENT_FAILED,
  PAYMENT_RECEIVED,
  REFUNDED,
  RETRYABLE_STATES,
  TOO_LATE_STATES,
  UNPAID_STATES,
} from "../../shared/order-lifecycle.ts";

/**
 * A HitPay payment that ended unpaid, by HitPay's word. These orders are not final for money: the
 * same payment request may still complete (the buyer pays on the page they came back to). A
 * `completed` report then pays a failed or cancelled payment's order as it would one awaiting
 * payment; on an expired one it came too late and is refunded.
 */
export const UNPAID_STATE_OF: Record<HitPayEndedUnpaid, ConsumerOrderState> = {
  failed: PAYMENT_FAILED,
  expired: PAYMENT_EXPIRED,
  canceled: PAYMENT_CANCELLED,
};

/** The currency every consumer price is charged in (spec §9: exchange target SGD). */
export const CONSUMER_CURRENCY = "SGD";

/** The payment-relevant fields of a stored order. */
export interface PayableOrder {
  status: OrderStatus;
  buyer_type: string;
  amount_cents: number;
  payment_provider: string | null;
  payment_reference: string | null;
}

/** A verified payment event, whoever reported it (webhook or a status query). */
export interface PaymentReport {
  provider: string;
  paymentRequestId: string;
  /** In the payment request's words: HITPAY_PAID ("completed") is paid (statuses.ts). */
  status: string;
  amountCents: number;
  currency: string;
  /** The payment's own id, when the report names one: what a refund of it names. */
  paymentId?: string;
}

/**
 * What a payment report may do to an order:
 * - `pay`: move it from awaiting payment to payment received;
 * - `foreign`: no order of ours has this reference (HitPay sends the endpoint every payment of
 *   the business: payment links, invoices, its POS) — acknowledged, nothing changes;
 * - `refuse`: the report does not describe this order's payment (wrong request, amount or
 *   currency) — recorded as evidence, nothing changes;
 * - `retry`: the order has no payment request stored yet (the report raced our own second
 *   transaction), so the provider should send it again;
 * - `unpaid`: HitPay says the payment ended unpaid (failed, expired, cancelled): the order awaiting
 *   payment moves to that state, where a later completion may still pay it;
 * - `late`: a completion for an order the shop expired or cancelled: it is never delivered; it
 *   moves to error with the payment recorded, and the payment is refunded;
 * - `record`: kept for the history, the order stays as it is (a pending notice, a failure of an
 *   order no longer awaiting payment, or a completion for an order already past that step: states
 *   only move forward).
 */
export type PaymentEffect =
  | { kind: "pay" }
  | { kind: "foreign" }
  | { kind: "unpaid"; status: ConsumerOrderState }
  | { kind: "refuse"; reason: string }
  | { kind: "retry" }
  | { kind: "late"; reason: string }
  | { kind: "record"; reason: string };

/** Decides what `report` may do to `order` (undefined when no order has the reference). */
export function paymentEffect(
  order: PayableOrder | undefined,
  report: PaymentReport,
): PaymentEffect {
  if (!order || order.buyer_type !== "consumer" || order.payment_provider !== report.provider) {
    return { kind: "foreign" };
  }
  if (order.payment_reference === null) {
    return order.status === AWAITING_PAYMENT
      ? { kind: "retry" }
      : { kind: "refuse", reason: "the order has no payment request" };
  }
  if (order.payment_reference !== report.paymentRequestId) {
    return { kind: "refuse", reason: "payment request does not match the order" };
  }
  if (report.amountCents !== order.amount_cents) {
    return { kind: "refuse", reason: "amount does not match the order" };
  }
  if (report.currency !== CONSUMER_CURRENCY) {
    return { kind: "refuse", reason: "currency does not match the order" };
  }
  if (isEndedUnpaid(report.status) && order.status === AWAITING_PAYMENT) {
    return { kind: "unpaid", status: UNPAID_STATE_OF[report.status] };
  }
  if (report.status !== HITPAY_PAID) {
    return { kind: "record", reason: `payment ${report.status}; order stays ${order.status}` };
  }
  if (TOO_LATE_STATES.includes(order.status)) {
    return {
      kind: "late",
      reason: order.status === PAYMENT_EXPIRED
        ? "Paid after the order's payment time ran out: refunded, not delivered"
        : "Paid after the order was cancelled: refunded, not delivered",
    };
  }
  if (!PAYABLE_STATES.includes(order.status)) {
    return { kind: "record", reason: `already ${order.status}` };
  }
  return { kind: "pay" };
}
