// JSON shapes of orders and balance history as the /api sends them (spec §3 Order, Balance
// history entry). Types only: islands and server code both import them.

/** Reseller order statuses (spec §4): new ('New ⏳'), pending, successful ('Success ✅'), error. */
export type ResellerOrderStatus = "new" | "pending" | "successful" | "error";

/** Spec §3 Order, as a reseller sees it (no cost). Amounts in dollars; date ISO. */
export interface ResellerOrderDto {
  id: string;
  status: string;
  date: string;
  game: string;
  package: string;
  packageEDName: string;
  userName: string;
  userID: string;
  serverID: string;
  item: string;
  amount: number;
  supplierOrderID: string;
  denom: string;
  buyerType: "reseller";
  reseller: { id: string; name: string; oldBalance: number; newBalance: number };
}

/** Balance history types (spec §3) with their labels. */
export const BALANCE_TYPE_LABELS = {
  initial: "Starting Account Balance",
  order_placed: "Order placed",
  order_refunded: "Order refunded",
  top_up: "Account Top up",
  deduct: "Account Deduction",
} as const;

export type BalanceEntryTypeName = keyof typeof BALANCE_TYPE_LABELS;

/** Spec §3 Balance history entry; `order` only for order_placed. Amounts in dollars. */
export interface BalanceEntryDto {
  id: number;
  date: string;
  old: number;
  new: number;
  type: BalanceEntryTypeName;
  order: { id: string; date: string; item: string; amount: number } | null;
}

/** Common body of the three place-order calls (spec §7 Reseller). amount/cost/reseller are not trusted. */
export interface PlaceOrderBody {
  reseller: { name: string; id: string };
  game: string;
  userid: string;
  serverid: string;
  denom: string;
  userName: string;
  itemName: string;
  amount: number;
  cost: number;
}
