import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

export interface JobRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/** The row for a new job (also written inside the order placement statement). */
export function jobValues(kind: string, payload: Record<string, unknown>, runAt = new Date()) {
  return { kind, payload: JSON.stringify(payload), run_at: runAt };
}

/** Queues a job in the caller's transaction, so it exists exactly when the data it acts on does. */
export async function enqueueJob(
  trx: Transaction<Database> | Db,
  kind: string,
  payload: Record<string, unknown>,
  runAt: Date = new Date(),
): Promise<void> {
  await trx.insertInto("jobs").values(jobValues(kind, payload, runAt)).execute();
}

/**
 * Claims up to `limit` due jobs of `kind` for `worker` with FOR UPDATE SKIP LOCKED, so any number
 * of app instances share the queue; a claim expires after `leaseSeconds` if its worker dies.
 */
export async function claimDueJobs(
  db: Db,
  worker: string,
  limit: number,
  leaseSeconds: number,
  kind: string,
): Promise<JobRow[]> {
  const rows = await sql<JobRow>`
    UPDATE jobs SET locked_by = ${worker},
      locked_until = now() + make_interval(secs => ${leaseSeconds}),
      attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM jobs
      WHERE done_at IS NULL AND run_at <= now() AND attempts < max_attempts AND kind = ${kind}
        AND (locked_until IS NULL OR locked_until < now())
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, payload, attempts, max_attempts`.execute(db);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function completeJob(db: Db, id: number): Promise<void> {
  await db.updateTable("jobs").set({ done_at: new Date(), locked_until: null }).where("id", "=", id)
    .execute();
}

/** Releases a job to run again at `retryAt`, keeping the error for operators. */
export async function retryJob(db: Db, id: number, error: string, retryAt: Date): Promise<void> {
  await db.updateTable("jobs")
    .set({ last_error: error.slice(0, 2000), run_at: retryAt, locked_until: null, locked_by: null })
    .where("id", "=", id)
    .execute();
}

/** Deletes jobs finished over `days` ago; returns how many. */
export async function deleteJobsFinishedBefore(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("jobs")
    .where("done_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
