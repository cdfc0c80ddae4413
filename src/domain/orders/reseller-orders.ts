import type { Db } from "../../db/client.ts";
import {
  findResellerOrder,
  listConsumerOrdersInStatus,
  listOpenResellerOrders,
  listResellerOrders,
} from "../../db/repositories/orders.ts";
import { listBalanceEntries } from "../../db/repositories/ledger.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { BalanceEntryDto, ResellerOrderDto } from "../../shared/order-types.ts";
import { NotFoundError } from "../errors.ts";
import { forEachConcurrently } from "../concurrency.ts";
import { PAYMENT_RECEIVED } from "../payments/consumer-states.ts";
import { checkOrder, refreshOrder } from "./fulfil.ts";
import { presentBalanceEntry, presentResellerOrder } from "./present.ts";

/** A reseller sees at most this many of its newest orders in the list (export has them all). */
export const ORDER_LIST_LIMIT = 5000;

/** Spec §6: a reseller fetches only its own orders, newest first. */
export async function listOwnOrders(db: Db, resellerId: string): Promise<ResellerOrderDto[]> {
  return (await listResellerOrders(db, resellerId, ORDER_LIST_LIMIT)).map(presentResellerOrder);
}

/** The reseller's balance history, newest first (spec §2 My Account). */
export async function listOwnBalanceHistory(
  db: Db,
  resellerId: string,
): Promise<BalanceEntryDto[]> {
  return (await listBalanceEntries(db, resellerId)).reverse().map(presentBalanceEntry);
}

/** Refreshes one of the reseller's own orders; someone else's order is not found. */
export async function refreshOwnOrder(
  db: Db,
  suppliers: Suppliers,
  resellerId: string,
  orderId: string,
): Promise<ResellerOrderDto> {
  const order = await findResellerOrder(db, resellerId, orderId);
  if (!order) throw new NotFoundError("Order not found");
  return presentResellerOrder(await refreshOrder(db, suppliers, order.id));
}

/**
 * Refreshes open orders a few at a time: a reseller's new or pending orders, or, when no reseller
 * is given (the CLI's reconciliation), every reseller's and every paid consumer order still
 * waiting for delivery. Returns how many were open and how many could not be checked: the check
 * failed, or the supplier gave no answer that settles where the order stands (unreachable, timed
 * out), which `onUnchecked` is told with the reason.
 */
export async function refreshOpenOrders(
  db: Db,
  suppliers: Suppliers,
  options: {
    resellerId?: string;
    onlyPending?: boolean;
    onProgress?: (done: number, total: number) => void;
    onUnchecked?: (orderId: string, reason: string) => void;
  },
): Promise<{ checked: number; failed: number }> {
  const open = await listOpenResellerOrders(db, { ...options, limit: 10_000 });
  if (!options.resellerId) {
    const paid = await listConsumerOrdersInStatus(db, [PAYMENT_RECEIVED], 10_000);
    open.push(...paid.filter((o) => !options.onlyPending || o.supplier_order_id !== null));
  }
  let failed = 0;
  await forEachConcurrently(
    open,
    4,
    async (order) => {
      let unanswered: string | undefined;
      try {
        ({ unanswered } = await checkOrder(db, suppliers, order.id));
      } catch (error) {
        unanswered = error instanceof Error ? error.message : String(error);
      }
      if (unanswered === undefined) return;
      failed++;
      options.onUnchecked?.(order.id, unanswered);
    },
    options.onProgress,
  );
  return { checked: open.length, failed };
}
