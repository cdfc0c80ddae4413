// JSON shapes of orders and balance history as the /api sends them (spec §3 Order, Balance
// history entry). Types only: islands and server code both import them.

import { RESELLER_STATES } from "./order-lifecycle.ts";

/** Reseller order statuses (spec §4): new ('New' + hourglass), pending, successful ('Success' + check), error. */
export const RESELLER_ORDER_STATUSES = RESELLER_STATES;

export type ResellerOrderStatus = typeof RESELLER_ORDER_STATUSES[number];

/** Spec §3 Order's fields every viewer sees. Amounts in dollars; date ISO. */
export interface OrderFieldsDto {
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
}

/** Spec §3 Order, as a reseller sees it (no cost). */
export interface ResellerOrderDto extends Omit<OrderFieldsDto, "status"> {
  status: ResellerOrderStatus;
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

/** The two tabs of the admin Orders screen (spec §2), as GET /api/orders' `buyerType`. */
export type OrderBuyerType = "reseller" | "consumer";

/**
 * Spec §3 Order as an admin sees it: everything, cost included. `reseller` is set on reseller
 * orders and `consumer` on consumer orders. The server decides what the row allows: `refreshable`
 * (spec §4: still open at the supplier) and `awaitsManualPayment` (an admin may confirm or cancel).
 */
export interface AdminOrderDto extends OrderFieldsDto {
  cost: number;
  buyerType: OrderBuyerType;
  reseller: { id: string; name: string; oldBalance: number; newBalance: number } | null;
  consumer: { name: string; email: string; phone: string } | null;
  /** What the supplier or the payment last said when it went wrong, else "". */
  lastError: string;
  refreshable: boolean;
  awaitsManualPayment: boolean;
  /** The refund of a consumer's HitPay payment, once one was asked; else null. */
  refund: OrderRefundDto | null;
}

/** A consumer order's refund as an admin sees it. */
export interface OrderRefundDto {
  /** Dollars. */
  amount: number;
  /** "requested", "sending", "pending", "succeeded" or "refused". */
  status: string;
  /** HitPay's id for the refund; "" until HitPay gave one (or when found on the payment). */
  hitpayRefundId: string;
  /** HitPay's refusal, or why the last attempt got no usable answer; else "". */
  error: string;
}

/** GET /api/orders: one page of a tab, with how many match and how many are still open. */
export interface AdminOrdersPage {
  orders: AdminOrderDto[];
  total: number;
  page: number;
  pageSize: number;
  /** Orders of the tab still new or pending (spec §2: 'Refresh All Status' when more than one). */
  openCount: number;
}

/** One create request sent to the supplier for an order, as the Needs review queue shows it. */
export interface SupplierAttemptDto {
  /** ISO time the request was sent. */
  at: string;
  /** "accepted", "failed", "uncertain", "found by reference", an admin's decision … */
  outcome: string;
  /** What the supplier answered, or why no usable answer came. */
  answer: string;
}

/** GET /api/orders/review: an order waiting for an operator (Admin → Orders → Needs review). */
export interface ReviewOrderDto extends AdminOrderDto {
  /** Who was asked to deliver it: "elephant" (EliteDias) or "monkey" (MooGold). */
  supplier: string;
  /** ISO time it entered the queue. */
  reviewSince: string;
  reviewReason: string;
  attempts: SupplierAttemptDto[];
}

/** What an admin decides for an order in Needs review. */
export type ReviewAction = "delivered" | "refund" | "resend";

/** A job that used its last attempt, as the failed-jobs list shows it. */
export interface FailedJobDto {
  id: number;
  kind: string;
  /** The order, reseller event or mail it was about, when it names one. */
  subject: string;
  attempts: number;
  lastError: string;
  /** ISO times. */
  failedAt: string;
  createdAt: string;
}
