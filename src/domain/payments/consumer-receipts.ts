import type { Transaction } from "kysely";
import { publicOrigin } from "../../config.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { consumerReceipt, type ReceiptOrder, type ReceiptRefund } from "../mail/receipts.ts";

/** Where a consumer finds an order again by its number and billing email. */
export function orderPageUrl(orderId: string): string {
  return `${publicOrigin()}/consumers/order?order=${encodeURIComponent(orderId)}`;
}

/**
 * Queues the consumer's receipt in the transaction that moved the order, so exactly one receipt
 * exists per transition that happened (a replayed webhook moves nothing and mails nothing).
 */
export async function enqueueConsumerReceipt(
  trx: Transaction<Database>,
  kind: "paid" | "delivered" | "refunded",
  order: OrderRow,
  refund?: ReceiptRefund,
): Promise<void> {
  if (!order.consumer_email) return;
  await enqueueMail(
    trx,
    consumerReceipt(kind, receiptOrderOf(order), { orderPageUrl: orderPageUrl(order.id) }, refund),
  );
}

/** What a receipt shows of a stored consumer order. */
export function receiptOrderOf(order: OrderRow): ReceiptOrder {
  return {
    id: order.id,
    status: order.status,
    game: order.game,
    item: order.item,
    userId: order.user_id,
    serverId: order.server_id,
    userName: order.user_name,
    amountCents: Number(order.amount_cents),
    paymentProvider: order.payment_provider ?? "",
    customerName: order.consumer_name ?? "",
    email: order.consumer_email ?? "",
    createdAt: new Date(order.created_at),
  };
}
