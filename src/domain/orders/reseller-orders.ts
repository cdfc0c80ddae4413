import type { Db } from "../../db/client.ts";
import {
  findResellerOrder,
  listOpenResellerOrders,
  listResellerOrders,
} from "../../db/repositories/orders.ts";
import { listBalanceEntries } from "../../db/repositories/ledger.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { BalanceEntryDto, ResellerOrderDto } from "../../shared/order-types.ts";
import { NotFoundError } from "../errors.ts";
import { refreshOrder } from "./fulfil.ts";
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
 * Refreshes open orders (new or pending), a few at a time; for one reseller, or for all when
 * no reseller is given (the CLI's reconciliation). Returns how many were checked.
 */
export async function refreshOpenOrders(
  db: Db,
  suppliers: Suppliers,
  options: {
    resellerId?: string;
    onlyPending?: boolean;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<{ checked: number; failed: number }> {
  const open = await listOpenResellerOrders(db, { ...options, limit: 10_000 });
  let done = 0;
  let failed = 0;
  const queue = [...open];
  const worker = async () => {
    for (let order = queue.shift(); order; order = queue.shift()) {
      try {
        await refreshOrder(db, suppliers, order.id);
      } catch {
        failed++;
      }
      options.onProgress?.(++done, open.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { checked: open.length, failed };
}
