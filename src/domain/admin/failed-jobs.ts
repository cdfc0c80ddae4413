// Failed jobs: a job that used its last attempt is never run again on its own. Order
// jobs hand their order to Needs review (orders/review.ts), where an operator decides with the
// supplier's answers in view; every other kind (mail, reseller webhooks) is listed here for an
// admin to retry once the cause (an SMTP outage, a receiver down) is fixed.

import type { Db } from "../../db/client.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { type FailedJobRow, listFailedJobs, retryFailedJob } from "../../db/repositories/jobs.ts";
import type { FailedJobDto } from "../../shared/order-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { kickJobs } from "../jobs.ts";
import { ORDER_JOB_KINDS } from "../orders/jobs.ts";

/** The most failed jobs listed at once. */
const FAILED_JOBS_LIMIT = 200;

/** What a job was about, from its payload: an order, a webhook event or a mail's recipient. */
function subjectOf(payload: Record<string, unknown>): string {
  for (const key of ["orderId", "eventId", "to"]) {
    if (typeof payload[key] === "string") return payload[key] as string;
  }
  return "";
}

function presentFailedJob(row: FailedJobRow): FailedJobDto {
  return {
    id: row.id,
    kind: row.kind,
    subject: subjectOf(row.payload),
    attempts: row.attempts,
    lastError: row.last_error ?? "",
    failedAt: row.failed_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

/** The failed jobs an admin may retry (not order jobs: those are in Needs review), latest first. */
export async function listRetryableFailedJobs(db: Db): Promise<FailedJobDto[]> {
  return (await listFailedJobs(db, ORDER_JOB_KINDS, FAILED_JOBS_LIMIT)).map(presentFailedJob);
}

/**
 * Gives a failed job a fresh set of attempts, due now, audited. A failed resend of a webhook
 * event whose reseller has queued another since is refused (409): one resend per event waits; so
 * is a failed operations watch while another round is queued (migration 0016).
 */
export async function retryFailedJobAsOperator(
  db: Db,
  input: { id: number; actor: OperatorActor },
): Promise<void> {
  const job = await db.transaction().execute(async (trx) => {
    const job = await retryFailedJob(trx, input.id, ORDER_JOB_KINDS);
    if (!job) throw new NotFoundError("No failed job has this id");
    await insertAudit(trx, {
      ...auditActor(input.actor),
      action: "job.retry",
      targetType: "job",
      targetId: String(job.id),
      before: { kind: job.kind, failed: true },
      after: { kind: job.kind, failed: false },
    });
    return job;
  }).catch((e: unknown) => {
    const message = String((e as Error)?.message ?? e);
    if (message.includes("jobs_one_pending_resend")) {
      throw new ConflictError("A resend of this event is already queued");
    }
    if (message.includes("jobs_one_pending_watch")) {
      throw new ConflictError("A round of the operations watch is already queued");
    }
    throw e;
  });
  kickJobs(job.kind);
}
