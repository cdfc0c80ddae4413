// The admin Orders screen (spec §2 Admin console 'Orders'): both tabs paged and searched on the
// server, a status refresh of any order, and the manual payments an admin settles.

import type { Db } from "../../db/client.ts";
import type { OrderRow, RefundRow } from "../../db/schema.ts";
import { listRefundsOfOrders } from "../../db/repositories/refunds.ts";
import { countOrders, findOrderById, listOrdersPage } from "../../db/repositories/orders.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type {
  AdminOrderDto,
  AdminOrdersPage,
  OrderBuyerType,
  OrderRefundDto,
} from "../../shared/order-types.ts";
import { type OperatorActor } from "../actor.ts";
import { NotFoundError } from "../errors.ts";
import { centsToDollars } from "../money.ts";
import { AWAITING_PAYMENT } from "../payments/consumer-states.ts";
import { MANUAL, settleManualPayment } from "../payments/consumer-payments.ts";
import { isOpenAtSupplier, refreshOrder } from "./fulfil.ts";
import { refreshOpenOrders } from "./reseller-orders.ts";
import { presentOrderFields } from "./present.ts";
import { MOVES, type OrderStatus } from "./lifecycle.ts";

/** Rows per page of the admin orders tabs (spec §9). */
export const ADMIN_ORDERS_PAGE_SIZE = 20;

/** The statuses a tab can still refresh at the supplier (spec §4: new or pending). */
const OPEN_STATUSES: Record<OrderBuyerType, readonly OrderStatus[]> = {
  reseller: MOVES.delivered.reseller.from,
  consumer: MOVES.delivered.consumer.from,
};

/** A refund as the admin screens show it. */
function presentRefund(refund: RefundRow): OrderRefundDto {
  return {
    amount: centsToDollars(Number(refund.amount_cents)),
    status: refund.status,
    hitpayRefundId: refund.hitpay_refund_id ?? "",
    error: refund.error ?? "",
  };
}

/** Spec §3 Order as an admin sees it, with what the row allows, and its refund if it has one. */
export function presentAdminOrder(row: OrderRow, refund?: RefundRow): AdminOrderDto {
  const reseller = row.buyer_type === "reseller";
  return {
    ...presentOrderFields(row),
    // Supplier costs keep their precision (design.md); the number is for display only.
    cost: Number(row.cost),
    buyerType: row.buyer_type,
    reseller: reseller
      ? {
        id: row.reseller_id ?? "",
        name: row.reseller_name ?? "",
        oldBalance: centsToDollars(row.old_balance_cents ?? 0),
        newBalance: centsToDollars(row.new_balance_cents ?? 0),
      }
      : null,
    consumer: reseller ? null : {
      name: row.consumer_name ?? "",
      email: row.consumer_email ?? "",
      phone: row.consumer_phone ?? "",
    },
    lastError: row.last_error ?? "",
    refreshable: isOpenAtSupplier(row),
    awaitsManualPayment: !reseller && row.status === AWAITING_PAYMENT &&
      row.payment_provider === MANUAL,
    refund: refund ? presentRefund(refund) : null,
  };
}

/** `orders` presented with their refunds (one read for all of them). */
export async function presentAdminOrders(db: Db, orders: OrderRow[]): Promise<AdminOrderDto[]> {
  const refunds = await listRefundsOfOrders(
    db,
    orders.filter((o) => o.buyer_type === "consumer").map((o) => o.id),
  );
  return orders.map((order) =>
    presentAdminOrder(order, refunds.find((r) => r.order_id === order.id))
  );
}

/**
 * One page of a tab, newest first: the search (a case-insensitive substring of the spec §5
 * fields, plus the customer's name, email and phone) and the paging run in the database, so
 * the answer never holds more than a page whatever the number of orders.
 */
export async function listAdminOrders(
  db: Db,
  query: { buyerType: OrderBuyerType; search: string; page: number },
): Promise<AdminOrdersPage> {
  const search = query.search.trim();
  const filter = { buyerType: query.buyerType, search: search || undefined };
  const [{ rows, total }, openCount] = await Promise.all([
    listOrdersPage(db, filter, {
      limit: ADMIN_ORDERS_PAGE_SIZE,
      offset: (query.page - 1) * ADMIN_ORDERS_PAGE_SIZE,
    }),
    countOrders(db, { buyerType: query.buyerType }, OPEN_STATUSES[query.buyerType]),
  ]);
  return {
    orders: await presentAdminOrders(db, rows),
    total,
    page: query.page,
    pageSize: ADMIN_ORDERS_PAGE_SIZE,
    openCount,
  };
}

/** An admin refreshes any open order, a reseller's or a consumer's (spec §6). */
export async function refreshAnyOrder(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
): Promise<AdminOrderDto> {
  const order = await findOrderById(db, orderId);
  if (!order) throw new NotFoundError("Order not found");
  return presentAdminOrder(await refreshOrder(db, suppliers, order.id));
}

/** An admin's Refresh All Status: every open reseller order and every paid consumer order. */
export async function refreshAllOpenOrders(
  db: Db,
  suppliers: Suppliers,
): Promise<{ checked: number; failed: number }> {
  return await refreshOpenOrders(db, suppliers, {});
}

/** An admin confirms or cancels a consumer's manual payment from the Orders screen, audited. */
export async function settleManualPaymentAsAdmin(
  db: Db,
  input: { orderId: string; cancel: boolean; actor: OperatorActor },
): Promise<AdminOrderDto> {
  return presentAdminOrder(await settleManualPayment(db, input));
}
