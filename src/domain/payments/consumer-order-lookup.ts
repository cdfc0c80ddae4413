// A consumer finds an order from another device (beyond the spec: the receipts link to
// /consumers/order). The order number alone is not enough: the billing email must match too, and
// a wrong pair gets the same answer as an unknown number.

import type { Db } from "../../db/client.ts";
import { findOrderById } from "../../db/repositories/orders.ts";
import type { ConsumerOrderView } from "../../shared/consumer-storefront.ts";
import { NotFoundError } from "../errors.ts";
import { centsToDollars } from "../money.ts";

/** The one answer for an unknown order number and for a number with another email. */
export const ORDER_LOOKUP_NOT_FOUND = "No order matches this order number and email address.";

/** The consumer's order `orderId` if `email` is its billing email (case-insensitive). */
export async function findConsumerOrderForBuyer(
  db: Db,
  orderId: string,
  email: string,
): Promise<ConsumerOrderView> {
  // Order numbers are upper case (newOrderId); a phone's keyboard often types them in lower case.
  const order = await findOrderById(db, orderId.trim().toUpperCase());
  const matches = order?.buyer_type === "consumer" &&
    order.consumer_email?.toLowerCase() === email.trim().toLowerCase();
  if (!order || !matches) throw new NotFoundError(ORDER_LOOKUP_NOT_FOUND);
  return {
    orderID: order.id,
    gameName: order.game,
    userName: order.user_name,
    userid: order.user_id,
    serverid: order.server_id,
    itemName: order.item,
    amount: centsToDollars(order.amount_cents),
    status: order.status,
  };
}
