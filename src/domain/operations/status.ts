// The operations view: one function feeds the admin console's Operations screen
// (GET /api/admin/operations) and `cli status` (text or --json): the job queue per kind, Needs
// review, failed jobs, supplier balances and the latest alerts, with the readiness probe's answer
// when the caller has one.

import type { Db } from "../../db/client.ts";
import {
  countFailedJobs,
  countOrdersInReview,
  jobQueueByKind,
  listRecentAlerts,
} from "../../db/repositories/operations.ts";
import type { OperationsStatusDto, ReadinessDto } from "../../shared/operations-types.ts";
import { listRetryableFailedJobs } from "../admin/failed-jobs.ts";
import { ORDER_JOB_KINDS } from "../orders/jobs.ts";
import { REVIEWABLE_STATES } from "../orders/lifecycle.ts";
import { readAlertSettings } from "./alert-settings.ts";
import { supplierBalances } from "./balances.ts";

/** The latest failed jobs and alerts shown. */
const LATEST = 10;

/** The operations view now; `readiness` is the probe's answer where the caller has asked it. */
export async function operationsStatus(
  db: Db,
  options: { readiness?: ReadinessDto; now?: Date } = {},
): Promise<OperationsStatusDto> {
  const now = options.now ?? new Date();
  const settings = await readAlertSettings(db);
  const queue = await jobQueueByKind(db);
  const review = await countOrdersInReview(db, REVIEWABLE_STATES, now);
  const failed = await countFailedJobs(db, ORDER_JOB_KINDS, now);
  return {
    generatedAt: now.toISOString(),
    readiness: options.readiness ?? null,
    jobs: queue.map((k) => ({
      kind: k.kind,
      pending: k.pending,
      due: k.due,
      oldestDueSeconds: k.oldest_due_at === null
        ? null
        : Math.max(0, Math.round((now.getTime() - k.oldest_due_at.getTime()) / 1000)),
    })),
    backlog: queue.reduce((sum, k) => sum + k.due, 0),
    backlogLimit: settings.jobBacklogLimit,
    needsReview: review.total,
    failedJobs: {
      count: failed.total,
      latest: (await listRetryableFailedJobs(db)).slice(0, LATEST),
    },
    balances: await supplierBalances(db, settings, now),
    alerts: (await listRecentAlerts(db, LATEST)).map((a) => ({
      id: a.id,
      condition: a.condition,
      subject: a.subject,
      detail: a.detail,
      recipients: a.recipients,
      sentAt: a.sent_at.toISOString(),
    })),
  };
}
