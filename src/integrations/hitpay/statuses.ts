// Which of HitPay's status words mean "paid": the one home of that rule, for the webhook, the
// reconciliation and the simulator. Source: HitPay's OpenAPI document (GET
// /v1/payment-requests/{request_id}, https://docs.hitpayapp.com/apis/payment-request/get-payment-status;
// mirrored in api-evangelist/hitpay:openapi/_original/hitpay-openapi-original.json), summarised in
// external-apis.md §3.2.
//
// HitPay speaks two vocabularies. A payment request's own `status` (also what the v1 webhook and
// the v2 payment_request event report) is one of PAYMENT_REQUEST_STATUSES, and `completed` is
// paid. Each entry of its `payments[]` has a status of PAYMENT_STATUSES, where `succeeded` and
// `succeeded_manually` are paid; a payment is never `completed`.

import type { PaymentRequestStatus } from "./client.ts";

/** A payment request's `status` values. */
export const PAYMENT_REQUEST_STATUSES = [
  "pending",
  "completed",
  "failed",
  "expired",
  "canceled",
  "inactive",
] as const;

/** A payment's (`payments[].status`) values. */
export const PAYMENT_STATUSES = [
  "pending",
  "requires_payment_method",
  "requires_customer_action",
  "succeeded_manually",
  "failed",
  "canceled",
  "void",
  "succeeded",
  "refunded",
  "partially_refunded",
] as const;

export type PaymentRequestStatusValue = typeof PAYMENT_REQUEST_STATUSES[number];
export type PaymentStatusValue = typeof PAYMENT_STATUSES[number];

/**
 * HitPay's word for a paid payment request. A payment report carries it whichever door HitPay's
 * word came through: the v1 webhook says `completed` itself, and a reconciliation that finds a
 * `succeeded` payment reports it as `completed` too, so both store the same event key.
 */
export const HITPAY_PAID: PaymentRequestStatusValue = "completed";

/**
 * A payment request's words for "over, and nothing paid": `failed` (the v1 webhook's other word),
 * `expired` (its expiry passed) and `canceled` (the buyer left the checkout page: the word HitPay
 * appends to the redirect, and a status a request may report). A later `completed` still pays.
 */
export const HITPAY_ENDED_UNPAID = [
  "failed",
  "expired",
  "canceled",
] as const satisfies readonly PaymentRequestStatusValue[];

export type HitPayEndedUnpaid = typeof HITPAY_ENDED_UNPAID[number];

/** True when `status` is one of HITPAY_ENDED_UNPAID. */
export function isEndedUnpaid(status: string): status is HitPayEndedUnpaid {
  return (HITPAY_ENDED_UNPAID as readonly string[]).includes(status);
}

const SUCCEEDED: ReadonlySet<string> = new Set<PaymentStatusValue>([
  "succeeded",
  "succeeded_manually",
]);

/** A payment (an entry of `payments[]`) that went through. */
export function isSucceededPayment(status: string): boolean {
  return SUCCEEDED.has(status);
}

/** The payment HitPay's status answer says was made, or null when nothing was paid yet. */
export interface PaidPayment {
  /** The payment's id (the refund API names a payment by it, never by its request). */
  id: string;
  amountCents: number;
  currency: string;
}

/**
 * Reads a status answer: paid only when a payment `succeeded` (or `succeeded_manually`), and that
 * payment's own amount and currency are what was charged. The request's own `completed` is not
 * enough: HitPay has no refunded status for a request, so a request paid and then refunded (or
 * voided) from HitPay's dashboard stays `completed` while its payment says `refunded`.
 */
export function findPaidPayment(request: PaymentRequestStatus): PaidPayment | null {
  const succeeded = request.payments.find((p) => isSucceededPayment(p.status));
  if (!succeeded) return null;
  return { id: succeeded.id, amountCents: succeeded.amountCents, currency: succeeded.currency };
}

const TAKEN_BACK: ReadonlySet<string> = new Set<PaymentStatusValue>([
  "refunded",
  "partially_refunded",
  "void",
]);

/** A payment HitPay took back after it went through: refunded (wholly or partly) or voided. */
export interface TakenBackPayment extends PaidPayment {
  /** "refunded", "partially_refunded" or "void". */
  status: string;
}

/** The payment of a status answer that was refunded or voided, or null when none was. */
export function findTakenBackPayment(request: PaymentRequestStatus): TakenBackPayment | null {
  const payment = request.payments.find((p) => TAKEN_BACK.has(p.status));
  if (!payment) return null;
  return {
    id: payment.id,
    status: payment.status,
    amountCents: payment.amountCents,
    currency: payment.currency,
  };
}
