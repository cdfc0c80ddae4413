// The consumer end of the supplier flow: a paid order is delivered or left in error for an admin.
// Consumers paid with a card or wallet, not from a balance, so nothing is refunded here: card
// refunds are an admin action (design.md).

import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { enqueueConsumerReceipt } from "./consumer-receipts.ts";
import { move } from "../orders/lifecycle.ts";

/**
 * A definitive supplier failure after payment: the order moves to error once, keeping the reason
 * in last_error, where the admin orders list shows it.
 */
export async function failConsumerOrder(
  db: Db | Transaction<Database>,
  orderId: string,
  reason: string,
): Promise<void> {
  await move(db, orderId, "consumer", "failed", { lastError: reason.slice(0, 1000) });
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
