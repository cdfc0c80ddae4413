import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

export interface JobRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  /** The X-Request-Id of the request that queued it, if one did. */
  request_id: string | null;
}

/** What a new job row is made of (`requestId`: the request that queues it, if any). */
export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  runAt?: Date;
  requestId?: string;
}

/** The row for a new job. */
export function jobValues(job: NewJob) {
  return {
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    run_at: job.runAt ?? new Date(),
    request_id: job.requestId ?? null,
  };
}

/** Queues a job in the caller's transaction, so it exists exactly when the data it acts on does. */
export async function enqueueJob(trx: Transaction<Database> | Db, job: NewJob): Promise<void> {
  await trx.insertInto("jobs").values(jobValues(job)).execute();
}

/** A list of job ids as one array parameter (text, so both drivers pass it alike). */
const idArray = (ids: number[]) => sql`${`{${ids.join(",")}}`}::bigint[]`;

/**
 * Marks `done` jobs done and claims up to `limit` due jobs of `kind` for `worker`, in one
 * statement: a runner hands back the jobs it finished when it takes the next ones. FOR UPDATE
 * SKIP LOCKED lets any number of app instances and workers share the queue; a claim expires
 * after `leaseSeconds` if its worker dies.
 */
export async function claimDueJobs(
  db: Db,
  worker: string,
  limit: number,
  leaseSeconds: number,
  kind: string,
  done: number[] = [],
): Promise<JobRow[]> {
  const finish = done.length
    ? sql`WITH done AS (
        UPDATE jobs SET done_at = now(), locked_until = NULL WHERE id = ANY(${idArray(done)})
      ) `
    : sql``;
  const rows = await sql<JobRow>`
    ${finish}UPDATE jobs SET locked_by = ${worker},
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
    RETURNING id, kind, payload, attempts, max_attempts, request_id`.execute(db);
  return rows.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Marks jobs done (those a runner finished with no next claim to hand them back with). */
export async function completeJobs(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await sql`UPDATE jobs SET done_at = now(), locked_until = NULL WHERE id = ANY(${idArray(ids)})`
    .execute(db);
}

/** Releases a job to run again at `retryAt`, keeping the error for operators. */
export async function retryJob(db: Db, id: number, error: string, retryAt: Date): Promise<void> {
  await db.updateTable("jobs")
    .set({ last_error: error.slice(0, 2000), run_at: retryAt, locked_until: null, locked_by: null })
    .where("id", "=", id)
    .execute();
}

/** Gives up on a job that used its last attempt: it stays, failed, until an admin retries it. */
export async function failJob(db: Db, id: number, error: string): Promise<void> {
  await db.updateTable("jobs")
    .set({ last_error: error.slice(0, 2000), failed_at: new Date(), locked_until: null })
    .where("id", "=", id)
    .execute();
}

/**
 * Fails the jobs whose last attempt never reported back (its worker died and the lease ran out):
 * no claim takes them again, so without this they would wait unseen forever.
 */
export async function failAbandonedJobs(db: Db): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    UPDATE jobs SET failed_at = now(), locked_until = NULL,
      last_error = coalesce(last_error, 'the worker running its last attempt stopped')
    WHERE done_at IS NULL AND failed_at IS NULL AND attempts >= max_attempts
      AND (locked_until IS NULL OR locked_until < now())
    RETURNING id, kind, payload, attempts, max_attempts, request_id`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A failed job as an admin sees it. */
export interface FailedJobRow extends JobRow {
  last_error: string | null;
  failed_at: Date;
  created_at: Date;
}

/** Failed jobs, latest failure first, leaving out `exceptKinds`. */
export async function listFailedJobs(
  db: Db,
  exceptKinds: string[],
  limit: number,
): Promise<FailedJobRow[]> {
  let q = db.selectFrom("jobs")
    .select([
      "id",
      "kind",
      "payload",
      "attempts",
      "max_attempts",
      "request_id",
      "last_error",
      "failed_at",
      "created_at",
    ])
    .where("failed_at", "is not", null)
    .where("done_at", "is", null);
  if (exceptKinds.length) q = q.where("kind", "not in", exceptKinds);
  const rows = await q.orderBy("failed_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), failed_at: r.failed_at! }));
}

/** Gives a failed job (not of `exceptKinds`) a fresh set of attempts, due now; the job, if it was failed. */
export async function retryFailedJob(
  db: Db,
  id: number,
  exceptKinds: string[],
): Promise<JobRow | undefined> {
  let q = db.updateTable("jobs")
    .set({ failed_at: null, attempts: 0, run_at: new Date(), locked_until: null, locked_by: null })
    .where("id", "=", id)
    .where("failed_at", "is not", null)
    .where("done_at", "is", null);
  if (exceptKinds.length) q = q.where("kind", "not in", exceptKinds);
  const row = await q.returning(["id", "kind", "payload", "attempts", "max_attempts", "request_id"])
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** Deletes jobs finished over `days` ago; returns how many. */
export async function deleteJobsFinishedBefore(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("jobs")
    .where("done_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Per kind: jobs not done nor failed, the age of the oldest due one (s), and the failed ones. */
export async function jobQueueFigures(
  db: Db,
): Promise<{ kind: string; queued: number; oldest_age_seconds: number; failed: number }[]> {
  const { rows } = await sql<
    { kind: string; queued: number; oldest_age_seconds: number; failed: number }
  >`
    SELECT kind,
      count(*) FILTER (WHERE failed_at IS NULL)::int AS queued,
      coalesce(extract(epoch FROM now() - min(run_at)
        FILTER (WHERE failed_at IS NULL AND run_at <= now())), 0)::float8 AS oldest_age_seconds,
      count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
    FROM jobs WHERE done_at IS NULL
    GROUP BY kind`.execute(db);
  return rows;
}
