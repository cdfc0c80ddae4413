// What the operations watch and screen read and write (migration 0016): supplier
// balance readings, the job queue by kind, alert conditions and the alerts sent.

import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";
import type { OrderStatus } from "../../shared/order-lifecycle.ts";

type Handle = Db | Transaction<Database>;

export async function insertBalanceReading(
  db: Db,
  reading: { vendor: string; balanceCents: number; currency: string; readAt?: Date },
): Promise<void> {
  await db.insertInto("supplier_balance_readings").values({
    vendor: reading.vendor,
    balance_cents: reading.balanceCents,
    currency: reading.currency,
    read_at: reading.readAt ?? new Date(),
  }).execute();
}

export interface BalanceReadingRow {
  vendor: string;
  balance_cents: number;
  currency: string;
  read_at: Date;
}

/**
 * A vendor's readings since `since`, the last of each hour, oldest first (a trend of days reads
 * one point an hour however often the balance is read).
 */
export async function listHourlyBalanceReadings(
  db: Db,
  vendor: string,
  since: Date,
): Promise<BalanceReadingRow[]> {
  const { rows } = await sql<BalanceReadingRow>`
    SELECT vendor, balance_cents, currency, read_at FROM (
      SELECT DISTINCT ON (date_trunc('hour', read_at)) vendor, balance_cents, currency, read_at
      FROM supplier_balance_readings WHERE vendor = ${vendor} AND read_at >= ${since}
      ORDER BY date_trunc('hour', read_at), read_at DESC, id DESC
    ) hourly ORDER BY read_at`.execute(db);
  return rows.map((r) => ({
    ...r,
    balance_cents: Number(r.balance_cents),
    read_at: new Date(r.read_at),
  }));
}

/** `vendor`'s last balance reading, or undefined when it never was read. */
export async function findLastBalanceReading(
  db: Handle,
  vendor: string,
): Promise<BalanceReadingRow | undefined> {
  const row = await db.selectFrom("supplier_balance_readings")
    .select(["vendor", "balance_cents", "currency", "read_at"])
    .where("vendor", "=", vendor).orderBy("read_at", "desc").orderBy("id", "desc").limit(1)
    .executeTakeFirst();
  return row &&
    { ...row, balance_cents: Number(row.balance_cents), read_at: new Date(row.read_at) };
}

/** When `vendor`'s balance was last read, or null when it never was. */
export async function findLastBalanceReadingAt(db: Db, vendor: string): Promise<Date | null> {
  const row = await db.selectFrom("supplier_balance_readings").select("read_at")
    .where("vendor", "=", vendor).orderBy("read_at", "desc").limit(1).executeTakeFirst();
  return row ? new Date(row.read_at) : null;
}

/** Deletes readings older than `days`; returns how many. */
export async function deleteBalanceReadingsOlderThan(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("supplier_balance_readings")
    .where("read_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface JobQueueRow {
  kind: string;
  /** Waiting or running: neither done nor failed. */
  pending: number;
  /** Of those, due now (run_at passed). */
  due: number;
  /** When the longest-due job became due; null when none is due. */
  oldest_due_at: Date | null;
}

/** The unfinished jobs by kind. */
export async function jobQueueByKind(db: Db): Promise<JobQueueRow[]> {
  const { rows } = await sql<JobQueueRow>`
    SELECT kind, count(*)::int AS pending,
      (count(*) FILTER (WHERE run_at <= now()))::int AS due,
      min(run_at) FILTER (WHERE run_at <= now()) AS oldest_due_at
    FROM jobs WHERE done_at IS NULL AND failed_at IS NULL
    GROUP BY kind ORDER BY kind`.execute(db);
  return rows.map((r) => ({
    ...r,
    oldest_due_at: r.oldest_due_at === null ? null : new Date(r.oldest_due_at),
  }));
}

/** Failed jobs not of `exceptKinds`: how many, and how many failed after `since`. */
export async function countFailedJobs(
  db: Db,
  exceptKinds: readonly string[],
  since: Date,
): Promise<{ total: number; since: number }> {
  let q = db.selectFrom("jobs")
    .select([
      sql<number>`count(*)::int`.as("total"),
      sql<number>`(count(*) FILTER (WHERE failed_at > ${since}))::int`.as("since"),
    ])
    .where("failed_at", "is not", null)
    .where("done_at", "is", null);
  if (exceptKinds.length) q = q.where("kind", "not in", [...exceptKinds]);
  return await q.executeTakeFirstOrThrow();
}

/** Orders in Needs review still open: how many, and how many entered it after `since`. */
export async function countOrdersInReview(
  db: Db,
  openStatuses: readonly OrderStatus[],
  since: Date,
): Promise<{ total: number; since: number }> {
  return await db.selectFrom("orders")
    .select([
      sql<number>`count(*)::int`.as("total"),
      sql<number>`(count(*) FILTER (WHERE review_since > ${since}))::int`.as("since"),
    ])
    .where("review_since", "is not", null)
    .where("status", "in", [...openStatuses])
    .executeTakeFirstOrThrow();
}

/**
 * Resellers whose latest `count` webhook deliveries all failed (no 2xx answer), the latest within
 * the past hour, with the latest one's time.
 */
export async function listResellersWithFailingWebhooks(
  db: Db,
  count: number,
): Promise<{ reseller_id: string; name: string; last_at: Date }[]> {
  const { rows } = await sql<{ reseller_id: string; name: string; last_at: Date }>`
    SELECT d.reseller_id, r.name, max(d.at) AS last_at FROM (
      SELECT reseller_id, at, coalesce(status_code BETWEEN 200 AND 299, false) AS ok,
        row_number() OVER (PARTITION BY reseller_id ORDER BY at DESC, id DESC) AS n
      FROM webhook_deliveries WHERE at > now() - interval '1 day'
    ) d JOIN resellers r ON r.id = d.reseller_id
    WHERE d.n <= ${count}
    GROUP BY d.reseller_id, r.name
    HAVING count(*) = ${count} AND bool_and(NOT d.ok) AND max(d.at) > now() - interval '1 hour'
    ORDER BY d.reseller_id`.execute(db);
  return rows.map((r) => ({ ...r, last_at: new Date(r.last_at) }));
}

/**
 * Claims the right to send `condition`'s alert now: moves its last-sent time to now if it was
 * never sent or sent at least `minutes` ago, in one statement (the row lock orders concurrent
 * claims, and the second finds it sent). True when this caller claimed it.
 */
export async function claimAlertCondition(
  trx: Transaction<Database>,
  condition: string,
  minutes: number,
): Promise<boolean> {
  const { rows } = await sql<{ condition: string }>`
    INSERT INTO alert_conditions (condition, last_sent_at) VALUES (${condition}, now())
    ON CONFLICT (condition) DO UPDATE SET last_sent_at = now()
      WHERE alert_conditions.last_sent_at <= now() - make_interval(mins => ${minutes})
    RETURNING condition`.execute(trx);
  return rows.length === 1;
}

/** When `condition` last sent its alert, if ever. */
export async function findAlertConditionSentAt(
  db: Db,
  condition: string,
): Promise<Date | undefined> {
  const row = await db.selectFrom("alert_conditions").select("last_sent_at")
    .where("condition", "=", condition).executeTakeFirst();
  return row?.last_sent_at;
}

export async function insertAlert(
  trx: Transaction<Database>,
  alert: { condition: string; subject: string; detail: string; recipients: number },
): Promise<void> {
  await trx.insertInto("alerts").values(alert).execute();
}

export interface AlertRow {
  id: number;
  condition: string;
  subject: string;
  detail: string;
  recipients: number;
  sent_at: Date;
}

/** The latest alerts, newest first. */
export async function listRecentAlerts(db: Db, limit: number): Promise<AlertRow[]> {
  const rows = await db.selectFrom("alerts")
    .select(["id", "condition", "subject", "detail", "recipients", "sent_at"])
    .orderBy("sent_at", "desc").orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The job kind of the operations watch; migration 0016's index keeps one pending. */
export const WATCH_JOB_KIND = "operations.watch";

/**
 * Queues an `operations.watch` job unless one is pending (migration 0016's partial unique index:
 * however many instances ask at once, one waits). True when this call queued it.
 */
export async function enqueueWatchJob(db: Handle): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`
    INSERT INTO jobs (kind, payload, run_at) VALUES (${WATCH_JOB_KIND}, '{}', now())
    ON CONFLICT (kind) WHERE kind = 'operations.watch' AND done_at IS NULL AND failed_at IS NULL
    DO NOTHING RETURNING id`.execute(db);
  return rows.length === 1;
}
