// "I have paid" on the result page: a buyer who paid on HitPay's page while the webhook is late
// asks HitPay about the order at once, instead of waiting for the status poll's background check
// or the cron. It is the same reconciliation, under the same per-order limit as the poll's check
// (all instances share it), so clicking cannot make HitPay be asked more often than polling does.

import type { Db } from "../../db/client.ts";
import { findOrderById } from "../../db/repositories/orders.ts";
import { type HitPayClient, HitPayError } from "../../integrations/hitpay/client.ts";
import { AWAITING_PAYMENT } from "../../shared/order-lifecycle.ts";
import { PAYMENT_CHECK_PER_ORDER, takeRateLimitOrWait } from "../auth/rate-limit.ts";
import { NotFoundError, ThrottledError, UpstreamError } from "../errors.ts";
import { HITPAY, reconcileHitPayPayment } from "./consumer-payments.ts";

/** What a click within the per-order limit reads: when HitPay may be asked again. */
export function paymentCheckWaitText(seconds: number): string {
  return `We asked HitPay about this order a moment ago. Please try again in ${seconds} second${
    seconds === 1 ? "" : "s"
  }.`;
}

/** What a click reads when HitPay did not answer. */
export const PAYMENT_CHECK_UNREACHABLE =
  "We could not reach HitPay just now. Please try again in a moment.";

/**
 * POST /api/order/{id}/check-payment: asks HitPay now where consumer order `orderId`'s payment
 * stands and applies its answer as the webhook would (reconcileHitPayPayment); the order's status
 * afterwards. An order not awaiting a HitPay payment is answered with its status, HitPay unasked.
 * Refused (429, with the seconds to wait) when HitPay was asked about this order within the
 * limit's window; 502 when HitPay does not answer.
 */
export async function checkConsumerPaymentNow(
  db: Db,
  hitpay: HitPayClient,
  orderId: string,
): Promise<{ status: string }> {
  const order = await findOrderById(db, orderId);
  if (!order || order.buyer_type !== "consumer") throw new NotFoundError("Order not found");
  if (
    order.status !== AWAITING_PAYMENT || order.payment_provider !== HITPAY ||
    order.payment_reference === null
  ) {
    return { status: order.status };
  }
  const wait = await takeRateLimitOrWait(db, PAYMENT_CHECK_PER_ORDER, order.id);
  if (wait !== undefined) throw new ThrottledError(paymentCheckWaitText(wait), wait);
  try {
    await reconcileHitPayPayment(db, hitpay, order);
  } catch (error) {
    if (error instanceof HitPayError) throw new UpstreamError(PAYMENT_CHECK_UNREACHABLE);
    throw error;
  }
  const after = await findOrderById(db, order.id);
  return { status: after?.status ?? order.status };
}
