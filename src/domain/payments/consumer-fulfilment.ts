// The consumer end of the supplier flow: a paid order is delivered, or moves to error and its
// HitPay payment is refunded (consumer-refunds.ts); a manual payment's order waits in error for an
// admin, who returns the bank transfer by hand.

import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { enqueueConsumerReceipt } from "./consumer-receipts.ts";
import { move } from "../orders/lifecycle.ts";
import { REFUND_REASONS, type RefundAsk, requestRefund, SYSTEM } from "./consumer-refunds.ts";

/**
 * A definitive failure after payment: the order moves to error once, keeping the reason in
 * last_error, where the admin orders list shows it, and in the same transaction its HitPay payment
 * is asked to be refunded (`refund`: who asks and why; the system after a supplier's refusal by
 * default). The order as moved, or undefined when it had moved on.
 */
export async function failConsumerOrder(
  trx: Transaction<Database>,
  orderId: string,
  reason: string,
  refund: RefundAsk = { reason: REFUND_REASONS.failed, by: SYSTEM },
): Promise<OrderRow | undefined> {
  const order = await move(trx, orderId, "consumer", "failed", {
    lastError: reason.slice(0, 1000),
  });
  if (order) await requestRefund(trx, order, refund);
  return order;
}

/**
 * The supplier delivered: the order becomes successful once, and the "delivered" receipt is
 * queued in the same transaction.
 */
export async function deliverConsumerOrder(db: Db, orderId: string): Promise<void> {
  await db.transaction().execute((trx) => deliverConsumerOrderIn(trx, orderId));
}

/**
 * `deliverConsumerOrder` in the caller's transaction, recording `supplierOrderId` when given (an
 * admin read it off the supplier); the delivered order, or undefined when it had moved on.
 */
export async function deliverConsumerOrderIn(
  trx: Transaction<Database>,
  orderId: string,
  supplierOrderId?: string,
): Promise<OrderRow | undefined> {
  const order = await move(trx, orderId, "consumer", "delivered", {
    lastError: null,
    supplierOrderId,
  });
  if (!order) return undefined;
  await enqueueConsumerReceipt(trx, "delivered", order);
  return order;
}
