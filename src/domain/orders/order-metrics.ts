// The order counters of GET /metrics (topup_orders_total), labelled with the supplier's name as
// operators know it rather than the catalogue's internal kinds.
import type { OrderRow } from "../../db/schema.ts";
import { countOrder, observeDelivery, type OrderEvent } from "../../observability/metrics.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";

/**
 * Counts one step of an order, when its status change is written (a transaction that fails after
 * it, a lost connection, can count one too many: these are counters for graphs and alerts, the
 * orders table is the record).
 */
export function countOrderStep(
  event: OrderEvent,
  order: Pick<OrderRow, "buyer_type" | "supplier"> & { created_at?: Date },
): void {
  const counted = {
    buyer_type: order.buyer_type,
    supplier: supplierProfile(order.supplier)?.vendor ?? order.supplier,
  };
  countOrder(event, counted);
  // Delivery time from placement (a consumer order's includes the buyer's time to pay).
  if (event === "delivered" && order.created_at) {
    observeDelivery(counted, (Date.now() - new Date(order.created_at).getTime()) / 1000);
  }
}
