import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, OrderRow, SupplierAttemptRow } from "../schema.ts";
import type { NewJob } from "./jobs.ts";

/** An attempt whose outcome nobody knows yet: the request is out, or its answer was unusable. */
export const UNCERTAIN = "uncertain";

/** Outcomes that prove the supplier does not hold the order: only they make way for a new attempt. */
const NOT_AT_SUPPLIER = ["failed", "not at supplier", "not at supplier (operator)"];

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
 * Records a create request about to be sent, in one statement; its id, or undefined when the
 * order already has a live attempt (UNLESS_LIVE).
 */
export async function startSupplierAttempt(
  db: Db,
  orderId: string,
  supplier: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO supplier_attempts (order_id, supplier) VALUES (${orderId}, ${supplier})
    ${UNLESS_LIVE}
    RETURNING id`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].id);
}

/**
 * An order to send as read, the MooGold product id of its game (MooGold orders by it) and, when
 * the order waited to be sent, the attempt recorded for the create request about to go out.
 */
export interface OrderToSend {
  order: OrderRow;
  productId: string | null;
  /** Undefined when the order did not wait to be sent, or has a live attempt (UNLESS_LIVE). */
  attempt?: number;
}

/**
 * Reads an order and, only if it waits to be sent (in `waiting[buyer_type]` with no supplier order
 * id), records the attempt to send it: one statement, so a worker's read and its clearance to send
 * are one round trip. Undefined when there is no such order.
 */
export async function readOrderAndStartAttempt(
  db: Db,
  orderId: string,
  waiting: { reseller: string; consumer: string },
): Promise<OrderToSend | undefined> {
  const { rows } = await sql<OrderRow & { product_id: string | null; attempt_id: string | null }>`
    WITH o AS (SELECT * FROM orders WHERE id = ${orderId}), attempt AS (
      INSERT INTO supplier_attempts (order_id, supplier)
      SELECT id, supplier FROM o
      WHERE supplier_order_id IS NULL AND status = CASE buyer_type
        WHEN 'consumer' THEN ${waiting.consumer}::text ELSE ${waiting.reseller}::text END
      ${UNLESS_LIVE}
      RETURNING id
    )
    SELECT o.*, g.supplier_game_id AS product_id, (SELECT id FROM attempt) AS attempt_id
    FROM o LEFT JOIN games g ON g.id = o.game_id AND o.supplier = 'monkey'`.execute(db);
  if (!rows[0]) return undefined;
  const { product_id, attempt_id, ...order } = rows[0];
  return {
    order,
    productId: product_id,
    attempt: attempt_id === null ? undefined : Number(attempt_id),
  };
}

/**
 * A create the supplier accepted and has not finished, in one statement: the attempt's outcome,
 * the order's move from `from` to `changes` (its supplier order id recorded) and, only if it
 * moved and one is given, `watch`, the job that checks it at the supplier. No moment passes in
 * which the attempt says accepted and the order still waits to be sent. Returns the order as
 * moved, or undefined when it had moved on.
 */
export async function recordAcceptance(
  db: Db,
  attempt: { id: number; outcome: string; answer: string },
  orderId: string,
  from: readonly string[],
  changes: { status: string; supplier_order_id: string },
  watch?: NewJob,
): Promise<OrderRow | undefined> {
  const now = new Date();
  const queue = watch
    ? sql`, watch AS (
        INSERT INTO jobs (kind, payload, run_at, request_id)
        SELECT ${watch.kind}::text, ${JSON.stringify(watch.payload)}::text::jsonb,
          ${watch.runAt ?? now}::timestamptz, ${watch.requestId ?? null}::text
        FROM moved
      )`
    : sql``;
  const { rows } = await sql<OrderRow>`
    WITH attempt AS (
      UPDATE supplier_attempts
      SET outcome = ${attempt.outcome}, answer = ${attempt.answer.slice(0, 2000)},
        finished_at = ${now}
      WHERE id = ${attempt.id}
    ), moved AS (
      UPDATE orders SET status = ${changes.status}, supplier_order_id = ${changes.supplier_order_id},
        last_error = NULL, review_since = NULL, review_reason = NULL, updated_at = ${now}
      WHERE id = ${orderId} AND status IN (${sql.join([...from])})
      RETURNING *
    )${queue}
    SELECT * FROM moved`.execute(db);
  return rows[0];
}

/** The order's live attempt (see startSupplierAttempt): its outcome, null while it is out. */
export async function findLiveSupplierAttempt(
  db: Db,
  orderId: string,
): Promise<{ outcome: string | null } | undefined> {
  return await db.selectFrom("supplier_attempts").select("outcome")
    .where("order_id", "=", orderId)
    .where((eb) => eb.or([eb("outcome", "is", null), eb("outcome", "not in", NOT_AT_SUPPLIER)]))
    .executeTakeFirst();
}

/** Records what came of an attempt: `UNCERTAIN` keeps it open. */
export async function finishSupplierAttempt(
  db: Db,
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
