// Operator alerts: the admins are emailed, through the mail outbox, when a supplier's
// balance is below its threshold or cannot be read, when the Needs review queue or the failed-jobs list gains an
// entry, when the job backlog passes its limit, or when a reseller's webhooks keep failing. Each
// condition sends at most once an hour: the send is decided by one conditional statement on the
// condition's row (alert_conditions), in the transaction that queues the mails and records the
// alert, so any number of instances checking at once send it once.

import type { Db } from "../../db/client.ts";
import { listAdmins } from "../../db/repositories/admins.ts";
import {
  claimAlertCondition,
  countFailedJobs,
  countOrdersInReview,
  findAlertConditionSentAt,
  findLastBalanceReadingAt,
  insertAlert,
  jobQueueByKind,
  listResellersWithFailingWebhooks,
} from "../../db/repositories/operations.ts";
import { escapeHtml } from "../../shared/html.ts";
import { isAdminRank } from "../auth/users.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { centsToDecimalString } from "../money.ts";
import { ORDER_JOB_KINDS } from "../orders/jobs.ts";
import { REVIEWABLE_STATES } from "../orders/lifecycle.ts";
import type { AlertSettings } from "./alert-settings.ts";
import { type BalanceReading, VENDORS } from "./balances.ts";
import { formatBusinessDate } from "../../shared/business-time.ts";

/** The quiet time after a condition's alert: at most one alert per condition per hour. */
export const ALERT_QUIET_MINUTES = 60;

/** An alert a check found: its condition key (dedupe), the mail's subject and its text. */
export interface Alert {
  condition: string;
  subject: string;
  lines: string[];
}

/**
 * Sends `alert` to every admin unless its condition sent one within the quiet time; true when
 * sent.
 */
export async function sendAlert(db: Db, alert: Alert): Promise<boolean> {
  return await db.transaction().execute(async (trx) => {
    if (!await claimAlertCondition(trx, alert.condition, ALERT_QUIET_MINUTES)) return false;
    const admins = (await listAdmins(trx)).filter((admin) => isAdminRank(admin.rank));
    const subject = `Alert: ${alert.subject}`;
    for (const admin of admins) {
      await enqueueMail(trx, {
        to: admin.email,
        subject,
        text: alert.lines.join("\n\n"),
        html: alert.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
      });
    }
    await insertAlert(trx, {
      condition: alert.condition,
      subject: alert.subject,
      detail: alert.lines.join("\n"),
      recipients: admins.length,
    });
    return true;
  });
}

const OPERATIONS_HINT = "Admin → Operations shows the queue, the balances and every alert sent.";

/** A supplier below its threshold, from this round's readings. */
function lowBalanceAlerts(readings: BalanceReading[], settings: AlertSettings): Alert[] {
  return readings.flatMap((reading) => {
    const vendor = VENDORS.find((v) => v.vendor === reading.vendor)!;
    const thresholdCents = Math.round(settings[vendor.threshold] * 100);
    if (!reading.ok || reading.balanceCents >= thresholdCents) return [];
    const balance = `${centsToDecimalString(reading.balanceCents)} ${reading.currency}`;
    const threshold = `${centsToDecimalString(thresholdCents)} ${reading.currency}`;
    return [{
      condition: `supplier-balance:${vendor.vendor}`,
      subject: `${vendor.name} balance ${balance} is below ${threshold}`,
      lines: [
        `The prepaid balance at ${vendor.name} is ${balance}, below the alert threshold of ${threshold}.`,
        `When it runs out, every order sent to ${vendor.name} fails and is refunded. Top it up at ` +
        `${vendor.name}; the threshold is in Admin → Settings.`,
        OPERATIONS_HINT,
      ],
    }];
  });
}

/**
 * How long a supplier's balance may go unread before its alert: a failed read or two in a row is
 * a passing outage; this long without a reading, orders there may be failing too.
 */
export const UNREADABLE_BALANCE_MINUTES = 10;

/** A supplier whose balance read failed now and has not succeeded for a while. */
async function unreadableBalanceAlerts(db: Db, readings: BalanceReading[]): Promise<Alert[]> {
  const alerts: Alert[] = [];
  for (const reading of readings) {
    if (reading.ok) continue;
    const lastRead = await findLastBalanceReadingAt(db, reading.vendor);
    const since = Date.now() - UNREADABLE_BALANCE_MINUTES * 60_000;
    if (lastRead && lastRead.getTime() > since) continue;
    const vendor = VENDORS.find((v) => v.vendor === reading.vendor)!;
    alerts.push({
      condition: `supplier-balance-unreadable:${vendor.vendor}`,
      subject: `${vendor.name} balance cannot be read`,
      lines: [
        `Reading the prepaid balance at ${vendor.name} failed: ${reading.error}.`,
        lastRead
          ? `It was last read at ${formatBusinessDate(lastRead)} (Singapore time).`
          : "It has never been read.",
        `The same credentials and address send the orders: check ${vendor.name}'s API key and ` +
        "that its service answers, then Admin → Operations shows the next reading.",
        OPERATIONS_HINT,
      ],
    });
  }
  return alerts;
}

/** Since when a condition's news counts: its last alert, or ever. */
async function sinceLastAlert(db: Db, condition: string): Promise<Date> {
  return await findAlertConditionSentAt(db, condition) ?? new Date(0);
}

async function reviewAlerts(db: Db): Promise<Alert[]> {
  const condition = "needs-review";
  const review = await countOrdersInReview(
    db,
    REVIEWABLE_STATES,
    await sinceLastAlert(db, condition),
  );
  if (!review.since) return [];
  return [{
    condition,
    subject: `${review.since} new order(s) in Needs review`,
    lines: [
      `${review.since} order(s) entered Needs review since the last alert; ${review.total} wait there now.`,
      "Resolve them in Admin → Orders → Needs review.",
      OPERATIONS_HINT,
    ],
  }];
}

async function failedJobAlerts(db: Db): Promise<Alert[]> {
  const condition = "failed-jobs";
  const failed = await countFailedJobs(db, ORDER_JOB_KINDS, await sinceLastAlert(db, condition));
  if (!failed.since) return [];
  return [{
    condition,
    subject: `${failed.since} new failed job(s)`,
    lines: [
      `${failed.since} job(s) used their last attempt since the last alert; ${failed.total} failed job(s) wait for a retry.`,
      "Fix the cause (an SMTP outage, a receiver down), then retry them in Admin → Operations.",
      OPERATIONS_HINT,
    ],
  }];
}

async function backlogAlerts(db: Db, settings: AlertSettings): Promise<Alert[]> {
  const queue = await jobQueueByKind(db);
  const due = queue.reduce((sum, kind) => sum + kind.due, 0);
  if (due <= settings.jobBacklogLimit) return [];
  const kinds = queue.filter((k) => k.due).map((k) => `${k.kind}: ${k.due}`).join(", ");
  return [{
    condition: "job-backlog",
    subject: `${due} jobs are waiting, over the limit of ${settings.jobBacklogLimit}`,
    lines: [
      `${due} jobs are due and not yet run (${kinds}); the limit is ${settings.jobBacklogLimit}.`,
      "Check that the job runners are up (RUN_JOBS, `cli worker`) and what the suppliers answer.",
      OPERATIONS_HINT,
    ],
  }];
}

async function webhookAlerts(db: Db, settings: AlertSettings): Promise<Alert[]> {
  const failing = await listResellersWithFailingWebhooks(db, settings.webhookFailureLimit);
  return failing.map((reseller) => ({
    condition: `webhooks-failing:${reseller.reseller_id}`,
    subject: `Webhooks to reseller ${reseller.name} keep failing`,
    lines: [
      `The last ${settings.webhookFailureLimit} webhook deliveries to reseller ${reseller.name} ` +
      `failed, the latest at ${reseller.last_at.toISOString()}.`,
      "The reseller's webhook page lists each attempt with the receiver's answer.",
      OPERATIONS_HINT,
    ],
  }));
}

/**
 * Checks every alert condition and sends those that hold and have not sent within the hour;
 * returns the conditions whose alert was sent.
 */
export async function checkAlerts(
  db: Db,
  readings: BalanceReading[],
  settings: AlertSettings,
): Promise<string[]> {
  const found = [
    ...lowBalanceAlerts(readings, settings),
    ...await unreadableBalanceAlerts(db, readings),
    ...await reviewAlerts(db),
    ...await failedJobAlerts(db),
    ...await backlogAlerts(db, settings),
    ...await webhookAlerts(db, settings),
  ];
  const sent: string[] = [];
  for (const alert of found) {
    if (await sendAlert(db, alert)) sent.push(alert.condition);
  }
  return sent;
}
