import type { Db } from "../db/client.ts";
import { deleteExpiredSessions } from "../db/repositories/sessions.ts";
import { deleteLoginAttemptsOlderThan } from "../db/repositories/login-attempts.ts";
import { deleteIdempotencyKeysOlderThan } from "../db/repositories/idempotency.ts";
import { deleteJobsFinishedBefore } from "../db/repositories/jobs.ts";

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
  return {
    sessions: await deleteExpiredSessions(db),
    loginAttempts: await deleteLoginAttemptsOlderThan(db, RETENTION.loginAttemptHours),
    idempotencyKeys: await deleteIdempotencyKeysOlderThan(db, RETENTION.idempotencyKeyDays),
    jobs: await deleteJobsFinishedBefore(db, RETENTION.finishedJobDays),
  };
}
