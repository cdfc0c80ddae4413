import type { Db } from "../db/client.ts";
import { deleteExpiredSessions } from "../db/repositories/sessions.ts";
import { deleteLoginAttemptsOlderThan } from "../db/repositories/login-attempts.ts";
import { deleteIdempotencyKeysOlderThan } from "../db/repositories/idempotency.ts";
import { deleteJobsFinishedBefore } from "../db/repositories/jobs.ts";
import { analyzeOrders } from "../db/repositories/orders.ts";
import { deleteWebhookEventsOlderThan } from "../db/repositories/webhooks.ts";
import { deleteBalanceReadingsOlderThan } from "../db/repositories/operations.ts";

/** How long finished bookkeeping is kept. */
export const RETENTION = {
  /** Idempotency keys: a client retries within minutes; a week is generous. */
  idempotencyKeyDays: 7,
  /** Finished jobs stay for operators to inspect. */
  finishedJobDays: 30,
  /** Login throttle counters older than any throttle window. */
  loginAttemptHours: 24,
  /** Webhook events and their delivery attempts; retries end after about a day. */
  webhookEventDays: 30,
  /** Supplier balance readings (the dashboard's trend shows a week). */
  balanceReadingDays: 90,
};

export interface PurgeReport {
  sessions: number;
  loginAttempts: number;
  idempotencyKeys: number;
  jobs: number;
  webhookEvents: number;
  balanceReadings: number;
}

/**
 * Deletes what has expired: sessions past their expiry, throttle counters, old idempotency keys
 * finished jobs, old webhook events and supplier balance readings. Ledger, orders and audit rows are never touched. Safe to run concurrently.
 */
export async function purgeExpired(db: Db): Promise<PurgeReport> {
  return {
    sessions: await deleteExpiredSessions(db),
    loginAttempts: await deleteLoginAttemptsOlderThan(db, RETENTION.loginAttemptHours),
    idempotencyKeys: await deleteIdempotencyKeysOlderThan(db, RETENTION.idempotencyKeyDays),
    jobs: await deleteJobsFinishedBefore(db, RETENTION.finishedJobDays),
    webhookEvents: await deleteWebhookEventsOlderThan(db, RETENTION.webhookEventDays),
    balanceReadings: await deleteBalanceReadingsOlderThan(db, RETENTION.balanceReadingDays),
  };
}

/**
 * Keeps the planner's statistics of the orders table current, so the admin orders search and
 * lists use their indexes (migration 0004) on PGlite too, which has no autovacuum. Harmless and
 * cheap on PostgreSQL, whose autovacuum does the same.
 */
export async function refreshOrderStatistics(db: Db): Promise<void> {
  await analyzeOrders(db);
}
