import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, SupplierAttemptRow } from "../schema.ts";

/** An attempt whose outcome nobody knows yet: the request is out, or its answer was unusable. */
export const UNCERTAIN = "uncertain";

/** Outcomes that prove the supplier does not hold the order: only they make way for a new attempt. */
const NOT_AT_SUPPLIER = ["failed", "not at supplier", "not at supplier (operator)"];

/**
 * Records a create request about to be sent; its id, or undefined when the order already has a
 * live attempt: one whose outcome is unknown, or one that reached the supplier (accepted, found by
 * reference, decided by an operator). One statement against the partial unique index of live
 * attempts (migration 0020), so two workers, or a worker and a refresh that read the order before
 * the worker's answer was applied, can never both be cleared to send.
 */
export async function startSupplierAttempt(
  db: Db,
  orderId: string,
  supplier: string,
): Promise<number | undefined> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO supplier_attempts (order_id, supplier) VALUES (${orderId}, ${supplier})
    ON CONFLICT (order_id)
      WHERE outcome IS NULL
        OR outcome NOT IN ('failed', 'not at supplier', 'not at supplier (operator)')
      DO NOTHING
    RETURNING id`.execute(db);
  return rows[0] === undefined ? undefined : Number(rows[0].id);
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
