import { sql } from "kysely";
import type { Db } from "../db/client.ts";

/** How long finished bookkeeping is kept. */
export const RETENTION = {
  /** Idempotency keys: a client retries within minutes; a week is generous. */
  idempotencyKeyDays: 7,
  /** Finished jobs stay for operators to inspect. */
  finishedJobDays: 30,
  /** Login throttle counters older than any throttle window. */
  loginAttemptHours: 24,
};

export interface PurgeReport {
  sessions: number;
  loginAttempts: number;
  idempotencyKeys: number;
  jobs: number;
}

/**
 * Deletes what has expired: sessions past their expiry, throttle counters, old idempotency keys
 * and finished jobs. Ledger, orders and audit rows are never touched. Safe to run concurrently.
 */
export async function purgeExpired(db: Db): Promise<PurgeReport> {
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const sessions = await db.deleteFrom("sessions").where("expires_at", "<=", sql<Date>`now()`)
    .executeTakeFirst();
  const loginAttempts = await db.deleteFrom("login_attempts")
    .where(
      "window_start",
      "<",
      sql<Date>`now() - make_interval(hours => ${RETENTION.loginAttemptHours})`,
    )
    .executeTakeFirst();
  const idempotencyKeys = await db.deleteFrom("idempotency_keys")
    .where(
      "created_at",
      "<",
      sql<Date>`now() - make_interval(days => ${RETENTION.idempotencyKeyDays})`,
    )
    .executeTakeFirst();
  const jobs = await db.deleteFrom("jobs")
    .where("done_at", "<", sql<Date>`now() - make_interval(days => ${RETENTION.finishedJobDays})`)
    .executeTakeFirst();
  return {
    sessions: count(sessions),
    loginAttempts: count(loginAttempts),
    idempotencyKeys: count(idempotencyKeys),
    jobs: count(jobs),
  };
}
