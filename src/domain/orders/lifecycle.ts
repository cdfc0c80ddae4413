// The one way an order's status changes: `move` (and its batched and accepted-create variants)
// applies an event of the lifecycle table (src/shared/order-lifecycle.ts, the states and MOVES),
// clears Needs review as the table says, and counts the step for GET /metrics. The repository
// refuses any move the table does not list.

import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import {
  clearOrderReview,
  flagOrderForReview,
  type MoveChanges,
  type OrderMoveEvent,
  type StatusMove,
  transitionOrder,
  transitionOrderWithEvents,
  type UnsentAt,
} from "../../db/repositories/orders.ts";
import { type Acceptance, recordAcceptance } from "../../db/repositories/supplier-attempts.ts";
import {
  type BuyerType,
  type LifecycleEvent,
  MOVES,
  OPEN_AT_SUPPLIER,
  type OrderEventName,
  type OrderStatus,
  REVIEWABLE_STATES,
  type Step,
} from "../../shared/order-lifecycle.ts";
import { countOrderStep } from "./order-metrics.ts";

export * from "../../shared/order-lifecycle.ts";

type Handle = Db | Transaction<Database>;

/** The events that change the status (the others only set or clear Needs review). */
type StatusEventName = Exclude<OrderEventName, "heldForReview" | "reviewResolved">;

/** What a move names besides its event: a narrower `from`, which of the event's `to`, changes. */
export interface MoveOptions {
  /** Only from these of the event's states (one the caller read the order in). */
  from?: readonly OrderStatus[];
  /** One of the event's targets; its first by default. */
  to?: OrderStatus;
  supplierOrderId?: string;
  /** The HitPay payment that paid the order, when the move records one. */
  paymentId?: string;
  /** The reason shown with the order; null clears it, undefined leaves it. */
  lastError?: string | null;
  /** `rerouted`: the route the order moves to, from `unsentAt` (its supplier, still unsent). */
  route?: OrderRoute;
  unsentAt?: UnsentAt;
}

/** Where a rerouted order goes: the supplier, its keys of game and item, and its cost. */
export interface OrderRoute {
  supplier: string;
  denom: string;
  /** The supplier's game code, for a supplier that names games by code. */
  gameCode: string | null;
  /** The supplier's product id, for a supplier that names games by product id. */
  productId: string | null;
  cost: string;
  /** The item's key in its game (the first route's denom). */
  itemKey: string;
}

/** The event's step for `buyer`; an event the buyer type has no step for is a programming error. */
function stepOf(event: OrderEventName, buyer: BuyerType): Step<OrderStatus> {
  const step = (MOVES[event] as LifecycleEvent)[buyer];
  if (!step) throw new Error(`a ${buyer} order has no ${event} move`);
  return step;
}

/** The event's status move for `buyer`, as the repository takes it. */
function statusMove(
  event: StatusEventName,
  buyer: BuyerType,
  options: Pick<MoveOptions, "from" | "to"> = {},
): StatusMove {
  const step = stepOf(event, buyer);
  return { from: options.from ?? step.from, to: options.to ?? step.to[0] };
}

/** The columns a move writes besides the status; every status move clears Needs review. */
function changesOf(event: StatusEventName, options: MoveOptions): MoveChanges {
  const review = MOVES[event].review === "clear" ? { review_since: null, review_reason: null } : {};
  return {
    ...(options.supplierOrderId === undefined
      ? {}
      : { supplier_order_id: options.supplierOrderId }),
    ...(options.paymentId === undefined ? {} : { payment_id: options.paymentId }),
    ...(options.lastError === undefined ? {} : { last_error: options.lastError }),
    ...(options.route === undefined ? {} : {
      supplier: options.route.supplier,
      denom: options.route.denom,
      package_ed_name: options.route.gameCode,
      supplier_game_id: options.route.productId,
      cost: options.route.cost,
      route_item_key: options.route.itemKey,
    }),
    ...review,
  };
}

/** Counts the steps the event's move counts (see order-metrics.ts). */
function count(event: StatusEventName, order: OrderRow): void {
  for (const step of stepOf(event, order.buyer_type).counts) countOrderStep(step, order);
}

/**
 * Applies `event` to a `buyer` order still in one of the event's states (one conditional update,
 * so two workers, or a worker and a refresh, never apply it twice). The order as moved, or
 * undefined when it had moved on.
 */
export async function move(
  db: Handle,
  orderId: string,
  buyer: BuyerType,
  event: StatusEventName,
  options: MoveOptions = {},
): Promise<OrderRow | undefined> {
  const order = await transitionOrder(
    db,
    orderId,
    statusMove(event, buyer, options),
    changesOf(event, options),
    options.unsentAt,
  );
  if (order) count(event, order);
  return order;
}

/**
 * `move` for a reseller order outside a transaction, with its webhook `events` written only if it
 * moves and the reseller has a webhook, in one statement with the same moves of the same turn.
 */
export async function moveWithEvents(
  db: Db,
  orderId: string,
  event: StatusEventName,
  options: MoveOptions & { events: OrderMoveEvent[] },
): Promise<OrderRow | undefined> {
  const order = await transitionOrderWithEvents(db, {
    id: orderId,
    move: statusMove(event, "reseller", options),
    changes: changesOf(event, options),
    events: options.events,
  });
  if (order) count(event, order);
  return order;
}

/**
 * The supplier accepted a create it has not finished: the `sent` move with the attempt's outcome
 * and the first status check, in one statement with the other acceptances of the same turn.
 */
export async function moveOnAcceptance(
  db: Db,
  buyer: BuyerType,
  acceptance: Omit<Acceptance, "move">,
): Promise<OrderRow | undefined> {
  return await recordAcceptance(db, { ...acceptance, move: statusMove("sent", buyer) });
}

/**
 * `heldForReview`: puts an order still open at its supplier (or still in one of `from`, a part of
 * the event's states) in Needs review with `reason`; the order, or undefined when it was already
 * there or has moved on.
 */
export async function holdForReview(
  db: Handle,
  orderId: string,
  reason: string,
  from: readonly OrderStatus[] = OPEN_AT_SUPPLIER,
): Promise<OrderRow | undefined> {
  if (from.some((state) => !REVIEWABLE_STATES.includes(state))) {
    throw new Error(`an order cannot be held for review from ${from.join(", ")}`);
  }
  const order = await flagOrderForReview(db, orderId, from, reason);
  if (order) {
    for (const step of MOVES.heldForReview[order.buyer_type].counts) countOrderStep(step, order);
  }
  return order;
}

/** `reviewResolved`: takes an order out of Needs review without moving it (sent again). */
export async function resolveReviewFlag(db: Handle, orderId: string): Promise<void> {
  await clearOrderReview(db, orderId);
}
