import type { BalanceHistoryRow, OrderRow } from "../../db/schema.ts";
import type {
  BalanceEntryDto,
  OrderFieldsDto,
  ResellerOrderDto,
  ResellerOrderStatus,
} from "../../shared/order-types.ts";
import { centsToDollars } from "../money.ts";

/** Spec §3 Order's fields every viewer sees. */
export function presentOrderFields(row: OrderRow): OrderFieldsDto {
  return {
    id: row.id,
    status: row.status,
    date: row.created_at.toISOString(),
    game: row.game,
    package: row.package ?? "",
    packageEDName: row.package_ed_name ?? "",
    userName: row.user_name,
    userID: row.user_id,
    serverID: row.server_id,
    item: row.item,
    amount: centsToDollars(row.amount_cents),
    supplierOrderID: row.supplier_order_id ?? "",
    denom: row.denom,
  };
}

/** Spec §3 Order as its reseller sees it (the supplier cost stays on the server). */
export function presentResellerOrder(row: OrderRow): ResellerOrderDto {
  return {
    ...presentOrderFields(row),
    // A reseller order only ever takes these (fulfil.ts); consumer statuses are not its.
    status: row.status as ResellerOrderStatus,
    buyerType: "reseller",
    reseller: {
      id: row.reseller_id ?? "",
      name: row.reseller_name ?? "",
      oldBalance: centsToDollars(row.old_balance_cents ?? 0),
      newBalance: centsToDollars(row.new_balance_cents ?? 0),
    },
  };
}

/** Spec §3 Balance history entry. */
export function presentBalanceEntry(row: BalanceHistoryRow): BalanceEntryDto {
  return {
    id: row.id,
    date: row.at.toISOString(),
    old: centsToDollars(row.old_cents),
    new: centsToDollars(row.new_cents),
    type: row.type,
    order: row.type === "order_placed" && row.order_snapshot ? row.order_snapshot : null,
  };
}
