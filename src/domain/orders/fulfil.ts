import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { noteOrderError, readOrder } from "../../db/repositories/orders.ts";
import type { NewJob } from "../../db/repositories/jobs.ts";
import { kickJobs, queueJob, wakeJobsAt } from "../jobs.ts";
import {
  closeOpenSupplierAttempt,
  findLiveSupplierAttempt,
  finishSupplierAttempt,
  insertClosedSupplierAttempt,
  readOrderAndStartAttempt,
  startSupplierAttempt,
  UNCERTAIN,
} from "../../db/repositories/supplier-attempts.ts";
import { currentRequestId } from "../../observability/context.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type {
  ReferenceLookup,
  SupplierOrder,
  SupplierPort,
  SupplierVerdict,
} from "../../integrations/supplier-port.ts";
import { requireSupplierPort, supplierProfile } from "../../integrations/supplier-registry.ts";
import { refundOrderAmount } from "../ledger/ledger.ts";
import { deliverConsumerOrder, failConsumerOrder } from "../payments/consumer-fulfilment.ts";
import { HITPAY_REFUND_JOB, isRefundableThroughHitPay } from "../payments/consumer-refunds.ts";
import { orderEvents, queueOrderEvents } from "../resellers/webhooks.ts";
import { SUPPLIER_CREATE_JOB, SUPPLIER_STATUS_JOB } from "./place.ts";
import { orderRouteOf, planReroute, type RouteChoice } from "./routing.ts";
import { sendOrderToReview } from "./review.ts";
import { move, moveOnAcceptance, MOVES, moveWithEvents, type OrderStatus } from "./lifecycle.ts";

/** The order as its supplier's port takes it; `productId` is its game's supplier product id. */
function supplierOrderOf(order: OrderRow, productId: string | null): SupplierOrder {
  return {
    id: order.id,
    userId: order.user_id,
    serverId: order.server_id,
    userName: order.user_name,
    gameCode: order.package_ed_name,
    denom: order.denom,
    productId: productId ?? order.supplier_game_id,
    supplierOrderId: order.supplier_order_id,
  };
}

/** The port of the order's supplier. */
function portOf(suppliers: Suppliers, order: OrderRow): SupplierPort {
  return requireSupplierPort(suppliers, order.supplier);
}

/** How an attempt's row records a verdict. */
function attemptRecord(verdict: SupplierVerdict): [outcome: string, answer: string] {
  return verdict.kind === "accepted"
    ? ["accepted", `supplier order ${verdict.supplierOrderId} (${verdict.status})`]
    : [verdict.kind === "failed" ? "failed" : UNCERTAIN, verdict.reason];
}

/** A create the supplier took and has not finished: the order waits at the supplier. */
function isAcceptedOpen(
  verdict: SupplierVerdict,
): verdict is Extract<SupplierVerdict, { kind: "accepted" }> {
  return verdict.kind === "accepted" && verdict.status === "pending";
}

/**
 * Where an order whose earlier create got no usable answer stands at its supplier: asked by our
 * reference when the supplier can be (`findsByOurReference`); otherwise a review verdict, since
 * the supplier may hold it and sending again could deliver twice.
 */
export async function findByOurReference(
  port: SupplierPort,
  orderId: string,
): Promise<ReferenceLookup | Extract<SupplierVerdict, { kind: "review" }>> {
  if (port.capabilities.findsByOurReference && port.findByOurReference) {
    return await port.findByOurReference(orderId);
  }
  return {
    kind: "review",
    reason: `An earlier top-up request to ${port.name} got no usable answer, and ` +
      `${port.name} cannot be asked by our reference: it is not sent again without an operator.`,
  };
}

/**
 * What sending a create came to; `accepted`: the attempt the supplier accepted (isAcceptedOpen),
 * whose outcome the caller records together with the order's move.
 */
interface Created {
  verdict: SupplierVerdict;
  accepted?: number;
  /** The attempt the supplier refused (verdict failed), for failOrder to close. */
  refused?: number;
}

/**
 * Sends the order's create request under `attempt` (recorded before the request leaves, so a
 * crash mid-call is remembered too), at most once while an earlier one's outcome is unknown:
 * without an attempt the order has a live one, and an open attempt means ask, never send blindly.
 * A supplier that can be asked by our reference (`findsByOurReference`) is asked; one that
 * cannot gets no create again after one without a usable answer: an operator decides instead.
 */
async function createAtSupplier(
  db: Db,
  suppliers: Suppliers,
  order: OrderRow,
  productId: string | null,
  attempt: number | undefined,
): Promise<Created> {
  const port = portOf(suppliers, order);
  if (attempt === undefined) {
    const live = await findLiveSupplierAttempt(db, order.id);
    if (live && live.outcome !== null && live.outcome !== UNCERTAIN) {
      // The supplier has it (an answer being applied to the order right now, or an operator's
      // decision): nothing to send; the caller reads the order again later.
      return { verdict: { kind: "unknown", reason: `already at the supplier (${live.outcome})` } };
    }
    const lookup = await findByOurReference(port, order.id);
    if (lookup.kind === "review") return { verdict: lookup };
    if (lookup.kind === "found") {
      const found = lookup.verdict;
      await closeOpenSupplierAttempt(db, order.id, "found by reference", attemptRecord(found)[1]);
      return { verdict: found };
    }
    if (lookup.kind === "unknown") return { verdict: { kind: "unknown", reason: lookup.reason } };
    // The supplier's own answer that it holds no order under our reference: safe to send.
    await closeOpenSupplierAttempt(db, order.id, "not at supplier", lookup.reason);
    const again = await startSupplierAttempt(db, order.id, WAITING, order.supplier);
    if (again === undefined) {
      // The order moved on since it was read (a refused create's refund, say), or another
      // attempt began meanwhile: not sent from here; a later read tells where it stands.
      return { verdict: { kind: "unknown", reason: "moved on or being sent meanwhile" } };
    }
    return await createAtSupplier(db, suppliers, order, productId, again);
  }
  const create = await port.prepareCreate(supplierOrderOf(order, productId));
  if (typeof create !== "function") {
    // Nothing went out, so the supplier does not hold the order.
    await finishSupplierAttempt(db, attempt, "not at supplier", `not sent: ${create.reason}`);
    return { verdict: create };
  }
  const verdict = await create();
  if (isAcceptedOpen(verdict)) return { verdict, accepted: attempt };
  if (verdict.kind === "later") {
    await finishSupplierAttempt(db, attempt, "not at supplier", `not sent: ${verdict.reason}`);
    return { verdict };
  }
  // A refusal closes its attempt in the transaction that fails the order (failOrder): closed
  // first, it would clear the order, still waiting, for a refresh to send again.
  if (verdict.kind === "failed") return { verdict, refused: attempt };
  await finishSupplierAttempt(db, attempt, ...attemptRecord(verdict));
  if (verdict.kind === "unknown" && !port.capabilities.findsByOurReference) {
    return {
      verdict: {
        kind: "review",
        reason: `${port.name} gave no usable answer to the top-up request (${verdict.reason}); ` +
          "it may exist there, so it is not sent again without an operator.",
      },
    };
  }
  return { verdict };
}

/**
 * Marks an order failed and gives the reseller the amount back, once: the status change is
 * conditional and the 'order_refunded' row is unique per order, all in one transaction with the
 * reseller's order.error and order.refunded webhook events.
 */
export async function refundResellerOrder(
  db: Db,
  orderId: string,
  reason: string,
): Promise<boolean> {
  return await db.transaction().execute((trx) => refundResellerOrderIn(trx, orderId, reason));
}

/** `refundResellerOrder` in the caller's transaction; `by` names who refunded in the ledger. */
export async function refundResellerOrderIn(
  trx: Transaction<Database>,
  orderId: string,
  reason: string,
  by = "system",
): Promise<boolean> {
  const order = await move(trx, orderId, "reseller", "refunded", {
    lastError: reason.slice(0, 1000),
  });
  if (!order || !order.reseller_id) return false;
  await refundOrderAmount(
    trx,
    { id: order.id, resellerId: order.reseller_id, amountCents: order.amount_cents },
    by,
  );
  await queueOrderEvents(trx, order, ["order.error", "order.refunded"]);
  return true;
}

/**
 * A reseller order still in `from` (any it can be delivered from by default) is delivered, with
 * its order.successful webhook event, once, in the caller's transaction. Returns the delivered
 * order, or undefined when it had moved on.
 */
export async function markResellerOrderSuccessfulIn(
  trx: Transaction<Database>,
  orderId: string,
  from?: readonly OrderStatus[],
  supplierOrderId?: string,
): Promise<OrderRow | undefined> {
  const order = await move(trx, orderId, "reseller", "delivered", {
    from,
    lastError: null,
    supplierOrderId,
  });
  if (!order) return undefined;
  await queueOrderEvents(trx, order, ["order.successful"]);
  return order;
}

/**
 * Where orders wait to be sent, by buyer type: where the lifecycle's `sent` starts (reseller
 * orders move new → pending; consumer orders stay in payment received until delivered).
 */
const WAITING = {
  reseller: MOVES.sent.reseller.from[0],
  consumer: MOVES.sent.consumer.from[0],
};

/** The order has not reached its supplier yet (as far as we know). */
function awaitsSending(order: OrderRow): boolean {
  return order.status === WAITING[order.buyer_type] && order.supplier_order_id === null;
}

/** The order may still change at its supplier (refreshable): it can still be delivered. */
export function isOpenAtSupplier(order: OrderRow): boolean {
  const open: readonly OrderStatus[] = MOVES.delivered[order.buyer_type].from;
  return open.includes(order.status);
}

/**
 * A definitive failure: resellers get their money back once; a consumer's HitPay payment is
 * refunded through HitPay (asked in this transaction, sent by its job).
 * With `refused`, the attempt the supplier refused is closed in the same transaction, after the
 * order's move: no moment shows the attempt closed and the order still waiting to be sent, which
 * would clear a refresh to send it again (and the supplier might take that one).
 */
async function failOrder(
  db: Db,
  order: OrderRow,
  reason: string,
  refused?: number,
  skipped: RouteChoice["skipped"] = [],
): Promise<void> {
  const failed = await db.transaction().execute(async (trx) => {
    const failed = order.buyer_type === "consumer"
      ? await failConsumerOrder(trx, order.id, reason)
      : undefined;
    if (order.buyer_type !== "consumer") await refundResellerOrderIn(trx, order.id, reason);
    if (refused !== undefined) await finishSupplierAttempt(trx, refused, "failed", reason);
    await recordSkippedRoutes(trx, order.id, skipped);
    return failed;
  });
  // The refund asked with the failure is sent now, not at the refund lane's next poll, up to a
  // second later: the buyer is waiting for the money back.
  if (failed && isRefundableThroughHitPay(failed)) kickJobs(HITPAY_REFUND_JOB);
}

/** Each route passed over without sending, as a closed attempt of its supplier. */
async function recordSkippedRoutes(
  trx: Transaction<Database>,
  orderId: string,
  skipped: RouteChoice["skipped"],
): Promise<void> {
  for (const { route, reason } of skipped) {
    await insertClosedSupplierAttempt(trx, {
      orderId,
      supplier: route.supplier,
      outcome: "not at supplier",
      answer: reason,
    });
  }
}

/** What an order's last error says of the routes passed over, after the refusal's reason. */
function withSkips(reason: string, skipped: RouteChoice["skipped"]): string {
  return [reason, ...skipped.map((s) => s.reason)].join("; ");
}

/**
 * A create its supplier definitively refused (nothing was made there): the order moves to its
 * item's next route (`rerouted`, its status unchanged) with a new create job, in one transaction
 * with closing the refused attempt; without a next route it fails (failOrder). Only ever after a
 * definitive refusal, so no order is at two suppliers at once.
 */
async function failOrReroute(
  db: Db,
  order: OrderRow,
  reason: string,
  refused?: number,
): Promise<void> {
  const plan = await planReroute(db, order);
  if (!plan.next || plan.itemKey === undefined) {
    await failOrder(db, order, withSkips(reason, plan.skipped), refused, plan.skipped);
    return;
  }
  const nameOf = (key: string) => supplierProfile(key)?.name ?? key;
  const note = withSkips(`${nameOf(order.supplier)} refused: ${reason}`, plan.skipped) +
    `; sent to ${nameOf(plan.next.supplier)} instead`;
  const route = orderRouteOf(plan.next, plan.itemKey);
  const moved = await db.transaction().execute(async (trx) => {
    const moved = await move(trx, order.id, order.buyer_type, "rerouted", {
      from: [order.status],
      route,
      unsentAt: { supplier: order.supplier },
      lastError: note,
    });
    if (refused !== undefined) await finishSupplierAttempt(trx, refused, "failed", reason);
    if (!moved) return undefined;
    // Another sender (a refresh that found nothing under our reference) may have begun a create
    // at the refusing supplier meanwhile: the order stays there for that answer to decide.
    if (await findLiveSupplierAttempt(trx, order.id)) throw new StillAtSupplier();
    await recordSkippedRoutes(trx, order.id, plan.skipped);
    await queueJob(trx, SUPPLIER_CREATE_JOB, { orderId: order.id });
    return moved;
  }).catch((error) => {
    if (error instanceof StillAtSupplier) return undefined;
    throw error;
  });
  if (moved) kickJobs(SUPPLIER_CREATE_JOB);
}

/** Rolls a reroute back: the order has a create out at the supplier it was to leave. */
class StillAtSupplier extends Error {}

/**
 * Applies a verdict to `order` (as read just before asking the supplier): forward moves only,
 * refund on a definitive failure (closing `refused`, the attempt the supplier refused, with it).
 * Returns the order as it now stands when an update returned it (or nothing needed changing),
 * undefined when only a fresh read can tell.
 */
async function applyVerdict(
  db: Db,
  order: OrderRow,
  verdict: SupplierVerdict,
  refused?: number,
): Promise<OrderRow | undefined> {
  if (verdict.kind === "failed") {
    await failOrder(db, order, verdict.reason, refused);
    return undefined;
  }
  if (verdict.kind === "unknown" || verdict.kind === "later") {
    await noteOrderError(db, order.id, verdict.reason);
    return undefined;
  }
  if (verdict.kind === "review") {
    await sendOrderToReview(db, order.id, verdict.reason);
    return undefined;
  }
  if (verdict.status === "failed") {
    await move(db, order.id, order.buyer_type, "sent", {
      supplierOrderId: verdict.supplierOrderId,
    });
    await failOrder(db, order, "supplier reports the order failed");
    return undefined;
  }
  // Orders never move back to where they wait to be sent: one that was past it when read (a
  // pending reseller order being checked, a consumer order whose supplier id is recorded) has
  // nothing to record here.
  const atStage = awaitsSending(order)
    ? await move(db, order.id, order.buyer_type, "sent", {
      supplierOrderId: verdict.supplierOrderId,
      lastError: null,
    })
    : order;
  if (verdict.status !== "successful") return atStage;
  if (order.buyer_type === "consumer") {
    await deliverConsumerOrder(db, order.id);
    return undefined;
  }
  // Moved by someone else meanwhile: the event's body comes from the row the update returns.
  if (!atStage) {
    return await db.transaction().execute((trx) =>
      markResellerOrderSuccessfulIn(trx, order.id, ["pending"])
    );
  }
  return await markResellerOrderSuccessful(db, atStage, ["pending"]);
}

/**
 * `markResellerOrderSuccessfulIn` in one statement of its own, for a worker that holds the order
 * as it stands (`order`, read or returned by its last update): the event's body is that order
 * delivered, written only if the move happens and the reseller has a webhook.
 */
async function markResellerOrderSuccessful(
  db: Db,
  order: OrderRow,
  from: readonly OrderStatus[],
): Promise<OrderRow | undefined> {
  const delivered = { ...order, status: MOVES.delivered.reseller.to[0], last_error: null };
  return await moveWithEvents(db, order.id, "delivered", {
    from,
    lastError: null,
    events: orderEvents(delivered, ["order.successful"]),
  });
}

/**
 * The job after commit: sends a new (reseller) or paid (consumer) order to its supplier with our
 * order id as the reference (so a retry after a crash or timeout finds the same order). Returns
 * false when the answer was uncertain and the job should run again.
 */
export async function sendOrderToSupplier(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
): Promise<boolean> {
  return (await sendById(db, suppliers, orderId, { watch: false }))?.done ?? true;
}

/**
 * `sendOrderToSupplier`'s work, undefined when there is no such order: `done` is false when the
 * answer was uncertain (`reason` says how) or the supplier asked to be sent the order later
 * (`retryAt`, when it named a time); `after` is the order as it then stands, when the update that
 * moved it returned it; `watched`: the order's first status check is queued (with `watch`, when
 * the supplier accepted the order and has not finished it, in the statement that moved it).
 */
async function sendById(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
  { watch }: { watch: boolean },
): Promise<
  | { done: boolean; retryAt?: Date; after?: OrderRow; watched?: boolean; reason?: string }
  | undefined
> {
  const read = await readOrderAndStartAttempt(db, { orderId, waiting: WAITING });
  if (!read) return undefined;
  const { order, productId, attempt } = read;
  if (!awaitsSending(order)) return { done: true };
  const { verdict, accepted, refused } = await createAtSupplier(
    db,
    suppliers,
    order,
    productId,
    attempt,
  );
  if (accepted !== undefined && isAcceptedOpen(verdict)) {
    const [outcome, answer] = attemptRecord(verdict);
    const check = watch ? firstStatusCheck(order.id) : undefined;
    const after = await moveOnAcceptance(db, order.buyer_type, {
      attempt: { id: accepted, outcome, answer },
      orderId: order.id,
      supplierOrderId: verdict.supplierOrderId,
      watch: check,
    });
    if (check && after) wakeJobsAt(check.runAt, check.kind);
    return { done: true, after, watched: watch && after !== undefined };
  }
  if (verdict.kind === "failed") {
    await failOrReroute(db, order, verdict.reason, refused);
    return { done: true };
  }
  const after = await applyVerdict(db, order, verdict, refused);
  if (verdict.kind !== "unknown" && verdict.kind !== "later") return { done: true, after };
  const retryAt = verdict.kind === "later" && verdict.retryAfterMs !== undefined
    ? new Date(Date.now() + verdict.retryAfterMs)
    : undefined;
  return { done: false, retryAt, after, reason: verdict.reason };
}

/**
 * The supplier-create job: sends the order (`sendOrderToSupplier`), then, once the supplier has
 * it, queues the checks that follow it until it ends (`watchAtSupplier`). False when the answer
 * was uncertain and the job should run again; the time to run again when the supplier named one.
 */
export async function sendAndWatch(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
): Promise<boolean | Date> {
  const sent = await sendById(db, suppliers, orderId, { watch: true });
  if (!sent) return true;
  if (sent.done && !sent.watched) {
    await watchAtSupplier(db, sent.after ?? await readOrder(db, orderId));
  }
  return sent.retryAt ?? sent.done;
}

/**
 * Spec §4 refresh: asks the supplier about an open order and moves it forward; an order the
 * supplier has never seen is sent again (same reference, so never twice).
 */
export async function refreshOrder(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
): Promise<OrderRow> {
  return (await checkOrder(db, suppliers, orderId)).order;
}

/**
 * `refreshOrder`, also telling whether the supplier's answer settled where the order stands:
 * `unanswered` is why not (a timeout, a refused connection, garbage), when the order was left as
 * it was because nobody could tell.
 */
export async function checkOrder(
  db: Db,
  suppliers: Suppliers,
  orderId: string,
): Promise<{ order: OrderRow; unanswered?: string }> {
  const order = await readOrder(db, orderId);
  if (!order) throw new Error(`order ${orderId} vanished`);
  if (!isOpenAtSupplier(order)) return { order };
  const verdict = await portOf(suppliers, order).track(supplierOrderOf(order, null));
  if (awaitsSending(order) && verdict.kind === "unknown") {
    const sent = await sendById(db, suppliers, order.id, { watch: false });
    return {
      order: (await readOrder(db, orderId))!,
      unanswered: sent && !sent.done ? sent.reason : undefined,
    };
  }
  return {
    order: await applyVerdict(db, order, verdict) ?? (await readOrder(db, orderId))!,
    unanswered: verdict.kind === "unknown" ? verdict.reason : undefined,
  };
}

/** Seconds before the first status check: EliteDias and MooGold usually deliver within this. */
const FIRST_CHECK_SECONDS = 3;

/** The job that first checks an order at its supplier, FIRST_CHECK_SECONDS after now. */
function firstStatusCheck(orderId: string): NewJob & { runAt: Date } {
  return {
    kind: SUPPLIER_STATUS_JOB,
    payload: { orderId },
    runAt: new Date(Date.now() + FIRST_CHECK_SECONDS * 1000),
    requestId: currentRequestId(),
  };
}

/**
 * After the supplier accepted an order it has not delivered yet, queues the job that checks it
 * (with the runner's backoff) until it ends: a consumer's result page is polling, and a
 * reseller's bot or webhook receiver has no one to press refresh. A reseller's own refresh still
 * works meanwhile; `orders refresh` (cron) catches what the checks give up on.
 */
async function watchAtSupplier(db: Db, order: OrderRow | undefined): Promise<void> {
  if (!order?.supplier_order_id || !isOpenAtSupplier(order)) return;
  const check = firstStatusCheck(order.id);
  await queueJob(db, check.kind, check.payload, check.runAt);
}
