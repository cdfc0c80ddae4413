import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, OrderRow, SupplierAttemptRow } from "../schema.ts";
import type { NewJob } from "./jobs.ts";
import { anyOfList, coalescePerHandle, inOrderOf } from "../coalesce.ts";
import { assertListedMove, type StatusMove } from "./orders.ts";

/** An attempt whose outcome nobody knows yet: the request is out, or its answer was unusable. */
export const UNCERTAIN = "uncertain";

/** Outcomes that prove the supplier does not hold the order: only they make way for a new attempt. */
export const NOT_AT_SUPPLIER = ["failed", "not at supplier", "not at supplier (operator)"];

/**
 * What a new attempt does when the order already has a live one (an outcome unknown, or one that
 * reached the supplier: accepted, found by reference, decided by an operator): nothing. The
 * partial unique index of live attempts (migration 0020) decides, so two workers, or a worker and
 * a refresh that read the order before the worker's answer was applied, can never both be cleared
 * to send.
 */
const UNLESS_LIVE = sql`ON CONFLICT (order_id)
  WHERE outcome IS NULL
    OR outcome NOT IN ('failed', 'not at supplier', 'not at supplier (operator)')
  DO NOTHING`;

/**
 * The orders among `ids` that still wait to be sent (no supplier order id, in their buyer type's
 * waiting status), for a new attempt: FOR SHARE, so a statement that meets an order whose move
 * out of waiting (a refused create's refund, say) is being committed waits for it and then sees
 * the order as moved. Without the lock it would judge the order by the snapshot it began with,
 * and could clear a refused order to be sent again the moment its attempt was closed. The order
 * must still be at `atSupplier`, the supplier the caller read it at: a move to the item's next
 * route keeps its status, and a caller holding the order as it was would send it to the supplier
 * that just refused it, under an attempt of the next one.
 */
function stillWaiting(
  ids: readonly string[],
  waiting: WaitingStatuses,
  atSupplier: ReturnType<typeof sql>,
) {
  return sql`SELECT w.id, w.supplier FROM orders w
    WHERE w.id = ${anyOfList(ids)} AND w.supplier_order_id IS NULL AND w.status = CASE w.buyer_type
      WHEN 'consumer' THEN ${waiting.consumer}::text ELSE ${waiting.reseller}::text END
      AND w.supplier = ${atSupplier}
    FOR SHARE`;
}

/**
 * Records a create request about to be sent to `supplier`, in one statement; its id, or undefined
 * when the order no longer waits to be sent there (stillWaiting: moved on, or moved to another
 * route since the caller read it) or already has a live attempt (UNLESS_LIVE).
 */
export async function startSupplierAttempt(
  db: Db,
  orderId: string,
  waiting: WaitingStatuses,
  supplier: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO supplier_attempts (order_id, supplier)
    ${stillWaiting([orderId], waiting, sql`${supplier}::text`)}
    ${UNLESS_LIVE}
    RETURNING id`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].id);
}

/**
 * An order to send as read, the MooGold product id of its game (MooGold orders by it; a rerouted
 * order's is its route's, `orders.supplier_game_id`) and, when
 * the order waited to be sent, the attempt recorded for the create request about to go out.
 */
export interface OrderToSend {
  order: OrderRow;
  productId: string | null;
  /** Undefined when the order did not wait to be sent, or has a live attempt (UNLESS_LIVE). */
  attempt?: number;
}

/** Where an order waits to be sent, by buyer type (the order's status then). */
export interface WaitingStatuses {
  reseller: string;
  consumer: string;
}

/**
 * Reads orders and, for each that waits to be sent (in `waiting[buyer_type]` with no supplier
 * order id), records the attempt to send it: one statement, so a worker's read and its clearance
 * to send are one round trip. One answer per id, in order; undefined where there is no such order.
 */
export async function readOrdersAndStartAttempts(
  db: Db,
  orderIds: string[],
  waiting: WaitingStatuses,
): Promise<(OrderToSend | undefined)[]> {
  const { rows } = await sql<OrderRow & { product_id: string | null; attempt_id: string | null }>`
    WITH o AS (
      SELECT * FROM orders
      WHERE id = ${anyOfList(orderIds)}
    ), attempt AS (
      INSERT INTO supplier_attempts (order_id, supplier)
      ${stillWaiting(orderIds, waiting, sql`(SELECT o.supplier FROM o WHERE o.id = w.id)`)}
      ${UNLESS_LIVE}
      RETURNING id, order_id
    )
    SELECT o.*, CASE WHEN o.route_item_key IS NULL THEN g.supplier_game_id
        ELSE o.supplier_game_id END AS product_id,
      attempt.id AS attempt_id
    FROM o LEFT JOIN games g ON g.id = o.game_id AND o.supplier = 'monkey'
      LEFT JOIN attempt ON attempt.order_id = o.id`.execute(db);
  const read = rows.map(({ product_id, attempt_id, ...order }) => ({
    order,
    productId: product_id,
    attempt: attempt_id === null ? undefined : Number(attempt_id),
  }));
  return inOrderOf(orderIds, read, (r) => r.order.id);
}

/**
 * `readOrdersAndStartAttempts` for one order, in one statement with the other calls of the same
 * turn (the jobs a runner claimed together).
 */
export const readOrderAndStartAttempt: (
  db: Db,
  call: { orderId: string; waiting: WaitingStatuses },
) => Promise<OrderToSend | undefined> = coalescePerHandle(
  (call) => JSON.stringify(call.waiting),
  (call) => call.orderId,
  (db: Db, calls) =>
    readOrdersAndStartAttempts(db, calls.map((call) => call.orderId), calls[0].waiting),
);

/** A create the supplier accepted and has not finished (see recordAcceptances). */
export interface Acceptance {
  attempt: { id: number; outcome: string; answer: string };
  orderId: string;
  /** The order's move; it stays where it is when it has moved on. */
  move: StatusMove;
  supplierOrderId: string;
  /** The job that checks the order at its supplier, queued only if the order moved. */
  watch?: NewJob;
}

/**
 * Creates the supplier accepted and has not finished, in one statement: for each, the attempt's
 * outcome, the order's `move` (its supplier order id recorded, Needs review cleared) and, only
 * if it moved and one is given, `watch`. No moment passes in which an attempt says accepted and
 * its order still waits to be sent. One answer per acceptance, in order: the order as moved, or
 * undefined when it had moved on. The attempts and orders are found by their ids as arrays too
 * (`= ANY`), which the planner reads by index, where the join alone had it scan both tables.
 */
export async function recordAcceptances(
  db: Db,
  acceptances: Acceptance[],
): Promise<(OrderRow | undefined)[]> {
  for (const a of acceptances) assertListedMove(a.move);
  const now = new Date();
  const input = acceptances.map((a) => ({
    attempt_id: a.attempt.id,
    outcome: a.attempt.outcome,
    answer: a.attempt.answer.slice(0, 2000),
    order_id: a.orderId,
    from_statuses: a.move.from,
    status: a.move.to,
    supplier_order_id: a.supplierOrderId,
    watch_kind: a.watch?.kind ?? null,
    watch_payload: a.watch?.payload ?? null,
    watch_run_at: a.watch ? (a.watch.runAt ?? now).toISOString() : null,
    watch_request_id: a.watch?.requestId ?? null,
  }));
  const { rows } = await sql<OrderRow>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::text::jsonb) AS i(
        attempt_id bigint, outcome text, answer text, order_id text, from_statuses text[],
        status text, supplier_order_id text, watch_kind text, watch_payload jsonb,
        watch_run_at timestamptz, watch_request_id text)
    ), attempt AS (
      UPDATE supplier_attempts a
      SET outcome = i.outcome, answer = i.answer, finished_at = ${now}
      FROM input i
      WHERE a.id = i.attempt_id AND a.id = ANY(ARRAY(SELECT attempt_id FROM input))
    ), moved AS (
      UPDATE orders o SET status = i.status, supplier_order_id = i.supplier_order_id,
        last_error = NULL, review_since = NULL, review_reason = NULL, updated_at = ${now}
      FROM input i
      WHERE o.id = i.order_id AND o.status = ANY(i.from_statuses)
        AND o.id = ANY(ARRAY(SELECT order_id FROM input))
      RETURNING o.*
    ), watch AS (
      INSERT INTO jobs (kind, payload, run_at, request_id)
      SELECT i.watch_kind, i.watch_payload, i.watch_run_at, i.watch_request_id
      FROM moved JOIN input i ON i.order_id = moved.id
      WHERE i.watch_kind IS NOT NULL
    )
    SELECT * FROM moved`.execute(db);
  return inOrderOf(acceptances.map((a) => a.orderId), rows, (row) => row.id);
}

/**
 * `recordAcceptances` for one create, in one statement with the other calls of the same turn
 * (the answers that came in together).
 */
export const recordAcceptance: (db: Db, acceptance: Acceptance) => Promise<OrderRow | undefined> =
  coalescePerHandle(() => "", (a) => a.orderId, recordAcceptances);

/** The order's live attempt (see startSupplierAttempt): its outcome, null while it is out. */
export async function findLiveSupplierAttempt(
  db: Db | Transaction<Database>,
  orderId: string,
): Promise<{ outcome: string | null } | undefined> {
  return await db.selectFrom("supplier_attempts").select("outcome")
    .where("order_id", "=", orderId)
    .where((eb) => eb.or([eb("outcome", "is", null), eb("outcome", "not in", NOT_AT_SUPPLIER)]))
    .executeTakeFirst();
}

/** Records what came of an attempt: `UNCERTAIN` keeps it open. */
export async function finishSupplierAttempt(
  db: Db | Transaction<Database>,
  id: number,
  outcome: string,
  answer: string,
): Promise<void> {
  await db.updateTable("supplier_attempts")
    .set({ outcome, answer: answer.slice(0, 2000), finished_at: new Date() })
    .where("id", "=", id)
    .execute();
}

/**
 * Closes the order's open attempt with what is now known of it (found at the supplier, not there,
 * or an admin's decision); false when there was none.
 */
export async function closeOpenSupplierAttempt(
  db: Db | Transaction<Database>,
  orderId: string,
  outcome: string,
  answer: string,
): Promise<boolean> {
  const result = await db.updateTable("supplier_attempts")
    .set({ outcome, answer: answer.slice(0, 2000), finished_at: new Date() })
    .where("order_id", "=", orderId)
    .where((eb) => eb.or([eb("outcome", "is", null), eb("outcome", "=", UNCERTAIN)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a route passed over without sending (`outcome` one that proves the supplier does not
 * hold the order, so it is never live), in the caller's transaction.
 */
export async function insertClosedSupplierAttempt(
  trx: Transaction<Database>,
  attempt: { orderId: string; supplier: string; outcome: string; answer: string },
): Promise<void> {
  if (!NOT_AT_SUPPLIER.includes(attempt.outcome)) {
    throw new Error(`a closed attempt cannot be ${JSON.stringify(attempt.outcome)}`);
  }
  const now = new Date();
  await trx.insertInto("supplier_attempts").values({
    order_id: attempt.orderId,
    supplier: attempt.supplier,
    outcome: attempt.outcome,
    answer: attempt.answer.slice(0, 2000),
    started_at: now,
    finished_at: now,
  }).execute();
}

/** The suppliers an order has had any attempt at (sent, refused or passed over). */
export async function listAttemptedSuppliers(db: Db, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom("supplier_attempts").select("supplier").distinct()
    .where("order_id", "=", orderId).execute();
  return rows.map((row) => row.supplier);
}

/** Every attempt of the given orders, oldest first. */
export async function listSupplierAttempts(
  db: Db,
  orderIds: string[],
): Promise<SupplierAttemptRow[]> {
  if (!orderIds.length) return [];
  return (await db.selectFrom("supplier_attempts").selectAll()
    .where("order_id", "in", orderIds)
    .orderBy("order_id").orderBy("id")
    .execute()).map((row) => ({ ...row, id: Number(row.id) }));
}
