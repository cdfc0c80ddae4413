// An order's life (spec §4, design.md "Orders move forward only"): its states per buyer type and
// the one table of events with the moves each allows. Pure and dependency-free: the domain's
// `move` (src/domain/orders/lifecycle.ts) applies it, the orders repository refuses any move it
// does not list, and the islands read their state groups from it.

/** A reseller order: new until its supplier accepts it, then pending until it ends. */
export const RESELLER_STATES = ["new", "pending", "successful", "error"] as const;

/** A consumer order waits here until HitPay (or an admin, for manual payments) says it is paid. */
export const AWAITING_PAYMENT = "pending-customer-payment";
/** Paid; the supplier order is being placed or delivered. */
export const PAYMENT_RECEIVED = "payment-received-pending-disbursement";
/** Delivered by the supplier. */
export const DELIVERED = "successful";
/**
 * Paid, and it ended without delivery (the supplier definitively failed, an admin refunded it from
 * Needs review, or the payment came after the order expired or was cancelled): a HitPay payment is
 * being refunded (src/domain/payments/consumer-refunds.ts); a manual payment waits for an admin.
 */
export const FAILED = "error";
/** HitPay confirmed the refund of the order's whole payment. */
export const REFUNDED = "refunded";
/** An admin cancelled a manual payment that never came, or the payment could not be started. */
export const CANCELLED = "cancelled";
/** HitPay said the payment failed. */
export const PAYMENT_FAILED = "payment-failed";
/** The buyer left HitPay's checkout page without paying. */
export const PAYMENT_CANCELLED = "payment-cancelled";
/** The payment request expired unpaid. */
export const PAYMENT_EXPIRED = "payment-expired";

/** A consumer order's states. */
export const CONSUMER_STATES = [
  AWAITING_PAYMENT,
  PAYMENT_RECEIVED,
  DELIVERED,
  FAILED,
  REFUNDED,
  CANCELLED,
  PAYMENT_FAILED,
  PAYMENT_CANCELLED,
  PAYMENT_EXPIRED,
] as const;

export type ResellerOrderState = typeof RESELLER_STATES[number];
export type ConsumerOrderState = typeof CONSUMER_STATES[number];
/** `orders.status`: the two vocabularies share only their ends, successful and error. */
export type OrderStatus = ResellerOrderState | ConsumerOrderState;
export type BuyerType = "reseller" | "consumer";

/** Where an order starts, by buyer type (placement inserts it there). */
export const INITIAL_STATE = { reseller: "new", consumer: AWAITING_PAYMENT } as const satisfies {
  reseller: ResellerOrderState;
  consumer: ConsumerOrderState;
};

/** The steps of an order GET /metrics counts (topup_orders_total's `event`). */
export type OrderCount = "placed" | "delivered" | "failed" | "refunded" | "held_for_review";

/**
 * What an event does to an order of one buyer type: from one of `from` to one of `to` (the first
 * unless the caller names another); an empty `to` leaves the status as it is. `counts` are the
 * metrics steps the move counts when it happens.
 */
export interface Step<S extends OrderStatus> {
  from: readonly S[];
  to: readonly S[];
  counts: readonly OrderCount[];
}

/**
 * One event: its step per buyer type, and what it does to Needs review. Every status move
 * `clear`s the flag: what the operator was asked to find out is now known. Only `heldForReview`
 * sets it; it never changes the status (the buyer keeps seeing the order where it is).
 */
export interface LifecycleEvent {
  reseller?: Step<ResellerOrderState>;
  consumer?: Step<ConsumerOrderState>;
  review: "hold" | "clear";
}

/** The states an order can be sent, waited on, or held for review in. */
const OPEN = { reseller: ["new", "pending"], consumer: [PAYMENT_RECEIVED] } as const;

/**
 * Where a consumer order can wait for an operator: open at its supplier, or in error with its
 * refund refused by HitPay (or out of attempts), which only an operator can take further.
 */
const CONSUMER_REVIEWABLE = [PAYMENT_RECEIVED, FAILED] as const;

/** Every move an order can make. Nothing else changes `orders.status`. */
export const MOVES = {
  /**
   * HitPay (or an admin, for a manual payment) says it is paid. A payment that failed or that the
   * buyer left may still complete on the same HitPay page, and that completion still pays.
   */
  paid: {
    consumer: {
      from: [AWAITING_PAYMENT, PAYMENT_FAILED, PAYMENT_CANCELLED],
      to: [PAYMENT_RECEIVED],
      counts: ["placed"],
    },
    review: "clear",
  },
  /**
   * A payment completed after the shop expired or cancelled the order: never sent to a supplier,
   * it goes to error with its payment recorded, and the payment is refunded.
   */
  paidTooLate: {
    consumer: { from: [PAYMENT_EXPIRED, CANCELLED], to: [FAILED], counts: [] },
    review: "clear",
  },
  /** HitPay says the payment failed, expired or was cancelled (the buyer left its page). */
  paymentEndedUnpaid: {
    consumer: {
      from: [AWAITING_PAYMENT],
      to: [PAYMENT_FAILED, PAYMENT_CANCELLED, PAYMENT_EXPIRED],
      counts: [],
    },
    review: "clear",
  },
  /** An admin cancels a manual payment, or HitPay could not start one. */
  cancelled: {
    consumer: { from: [AWAITING_PAYMENT], to: [CANCELLED], counts: [] },
    review: "clear",
  },
  /** The supplier accepted the create: its order id is recorded. */
  sent: {
    reseller: { from: ["new"], to: ["pending"], counts: [] },
    consumer: { from: [PAYMENT_RECEIVED], to: [PAYMENT_RECEIVED], counts: [] },
    review: "clear",
  },
  /**
   * Its supplier definitively refused the create (nothing was made there) and the item has a
   * next route: the order goes to that supplier, where it waits to be sent as before.
   */
  rerouted: {
    reseller: { from: ["new"], to: ["new"], counts: [] },
    consumer: { from: [PAYMENT_RECEIVED], to: [PAYMENT_RECEIVED], counts: [] },
    review: "clear",
  },
  /** The supplier (or an operator, reading it off the supplier) says it is delivered. */
  delivered: {
    reseller: { from: OPEN.reseller, to: ["successful"], counts: ["delivered"] },
    consumer: { from: OPEN.consumer, to: [DELIVERED], counts: ["delivered"] },
    review: "clear",
  },
  /** A definitive supplier failure after payment: error, its HitPay payment to be refunded. */
  failed: {
    consumer: { from: OPEN.consumer, to: [FAILED], counts: ["failed"] },
    review: "clear",
  },
  /**
   * A definitive failure of a reseller order: error, and its amount back to the balance once. A
   * consumer order in error: HitPay confirmed the refund of its payment.
   */
  refunded: {
    reseller: { from: OPEN.reseller, to: ["error"], counts: ["failed", "refunded"] },
    consumer: { from: [FAILED], to: [REFUNDED], counts: ["refunded"] },
    review: "clear",
  },
  /**
   * Only an operator can tell what happened at the supplier, or take a refund HitPay refused
   * further: Needs review.
   */
  heldForReview: {
    reseller: { from: OPEN.reseller, to: [], counts: ["held_for_review"] },
    consumer: { from: CONSUMER_REVIEWABLE, to: [], counts: ["held_for_review"] },
    review: "hold",
  },
  /**
   * An operator sends it again, or asks HitPay for the refund again (delivered and refunded
   * resolve a review by their own move).
   */
  reviewResolved: {
    reseller: { from: OPEN.reseller, to: [], counts: [] },
    consumer: { from: CONSUMER_REVIEWABLE, to: [], counts: [] },
    review: "clear",
  },
} as const satisfies Record<string, LifecycleEvent>;

export type OrderEventName = keyof typeof MOVES;

/** The steps of every event, with its name and buyer type (for checks and the walk). */
export const STEPS: readonly (Step<OrderStatus> & { event: OrderEventName; buyer: BuyerType })[] =
  (Object.entries(MOVES) as [OrderEventName, LifecycleEvent][]).flatMap(([event, row]) =>
    (["reseller", "consumer"] as const).flatMap((buyer) => {
      const step = row[buyer];
      return step ? [{ ...step, event, buyer }] : [];
    })
  );

/** Whether the table lets an order move from `from` to `to` (one of both buyer types' steps). */
export function isListedMove(from: OrderStatus, to: OrderStatus): boolean {
  return STEPS.some((step) => step.from.includes(from) && step.to.includes(to));
}

/** A buyer type's states with no move out of them. */
export function terminalStates(buyer: BuyerType): OrderStatus[] {
  const states: readonly OrderStatus[] = buyer === "reseller" ? RESELLER_STATES : CONSUMER_STATES;
  return states.filter((state) =>
    !STEPS.some((step) => step.buyer === buyer && step.to.length > 0 && step.from.includes(state))
  );
}

/** Reseller orders that may still change (spec §4: only new or pending can be refreshed). */
export const OPEN_RESELLER_STATES: readonly OrderStatus[] = MOVES.delivered.reseller.from;

/** The states from which an order can still be delivered: open at its supplier. */
export const OPEN_AT_SUPPLIER: readonly OrderStatus[] = [...OPEN.reseller, ...OPEN.consumer];

/**
 * Where an order in Needs review can be: sent or waiting to be, not yet delivered or failed; or a
 * consumer order in error whose refund an operator must take further.
 */
export const REVIEWABLE_STATES: readonly OrderStatus[] = [
  ...MOVES.heldForReview.reseller.from,
  ...MOVES.heldForReview.consumer.from,
];

/**
 * The ended-unpaid states: a later completion of the same payment request still pays a failed or
 * cancelled one, and is refunded on an expired one (TOO_LATE_STATES).
 */
export const UNPAID_STATES: readonly OrderStatus[] = MOVES.paymentEndedUnpaid.consumer.to;

/** The states a `completed` payment may move to payment received. */
export const PAYABLE_STATES: readonly OrderStatus[] = MOVES.paid.consumer.from;

/** The states where a `completed` payment came too late: it is refunded, never delivered. */
export const TOO_LATE_STATES: readonly OrderStatus[] = MOVES.paidTooLate.consumer.from;

/**
 * Statuses where nothing was paid and nothing more will happen unless the buyer acts: a HitPay
 * payment that failed, was cancelled or expired, or a manual payment an admin cancelled. The
 * result page offers "Try again" (a new order for the same purchase) on these.
 */
export const RETRYABLE_STATES: readonly OrderStatus[] = [
  ...UNPAID_STATES,
  ...MOVES.cancelled.consumer.to,
];

/** Statuses still waiting on someone (drawn with an hourglass): awaiting payment, or open. */
export const WAITING_STATES: readonly OrderStatus[] = [
  ...OPEN.reseller,
  ...MOVES.cancelled.consumer.from,
  ...OPEN.consumer,
];
