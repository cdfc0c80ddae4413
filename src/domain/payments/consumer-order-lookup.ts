// A consumer finds an order from another device or browser (beyond the spec: the receipts link to
// /consumers/order). The order number alone is not enough: the billing email must match too, and
// a wrong pair gets the same answer as an unknown number. HitPay's redirect carries the payment
// request's id, which only the buyer's browser and HitPay hold: with it the result page shows the
// order itself, without the player or the buyer.

import type { Db } from "../../db/client.ts";
import { findOrderById, findOrderByPaymentReference } from "../../db/repositories/orders.ts";
import { serverNameOf, serverNamesByGame } from "../catalogue/games.ts";
import type { OrderRow } from "../../db/schema.ts";
import type { ConsumerOrderView } from "../../shared/consumer-storefront.ts";
import { NotFoundError } from "../errors.ts";
import { centsToDollars } from "../money.ts";
import { HITPAY } from "./consumer-payments.ts";

/** The one answer for an unknown order number and for a number with another email. */
export const ORDER_LOOKUP_NOT_FOUND = "No order matches this order number and email address.";

/** What anyone holding the order may see: no player, no buyer. */
function orderSummary(order: OrderRow): ConsumerOrderView {
  return {
    orderID: order.id,
    gameName: order.game,
    itemName: order.item,
    amount: centsToDollars(order.amount_cents),
    status: order.status,
  };
}

/** The order's server name, where its game lists its servers by name. */
function serverNameShown(names: Map<string, Map<string, string>>, order: OrderRow) {
  const name = serverNameOf(names, order);
  return order.server_id && name !== order.server_id ? { serverName: name } : {};
}

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
    ...orderSummary(order),
    userName: order.user_name,
    userid: order.user_id,
    serverid: order.server_id,
    ...serverNameShown(await serverNamesByGame(db), order),
  };
}

/**
 * The order HitPay's payment request `reference` was made for, as anyone holding that reference
 * may see it (orderSummary); an unknown reference is not found.
 */
export async function findConsumerOrderByPaymentReference(
  db: Db,
  reference: string,
): Promise<ConsumerOrderView> {
  const order = await findOrderByPaymentReference(db, HITPAY, reference.trim());
  if (!order || order.buyer_type !== "consumer") throw new NotFoundError("Order not found");
  return orderSummary(order);
}
