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
  /** The payment's id; the request's own when HitPay lists no succeeded payment. */
  id: string;
  amountCents: number;
  currency: string;
}

/**
 * Reads a status answer the way the webhook is read: paid when a payment `succeeded` (or
 * `succeeded_manually`), or when the request itself is `completed`. The succeeded payment's own
 * amount and currency are what was charged; without one, the request's.
 */
export function findPaidPayment(request: PaymentRequestStatus): PaidPayment | null {
  const succeeded = request.payments.find((p) => isSucceededPayment(p.status));
  if (succeeded) {
    return { id: succeeded.id, amountCents: succeeded.amountCents, currency: succeeded.currency };
  }
  if (request.status === HITPAY_PAID) {
    return { id: request.id, amountCents: request.amountCents, currency: request.currency };
  }
  return null;
}
