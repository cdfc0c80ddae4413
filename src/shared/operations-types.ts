// JSON shapes of the operations view: what GET /api/admin/operations answers, what
// `cli status --json` prints and what the operations screen and the dashboard's supplier balance
// card show. Types only.

import type { FailedJobDto } from "./order-types.ts";

/** One check of the readiness probe (/readyz). */
export interface ReadinessCheckDto {
  name: string;
  ok: boolean;
  detail?: string;
}

/** The readiness probe's answer. */
export interface ReadinessDto {
  ready: boolean;
  checks: ReadinessCheckDto[];
}

/** The unfinished jobs of one kind. */
export interface JobQueueDto {
  kind: string;
  /** Waiting or running: neither done nor failed. */
  pending: number;
  /** Of those, due now. */
  due: number;
  /** Seconds since the longest-due job became due; null when none is due. */
  oldestDueSeconds: number | null;
}

/** One reading of a supplier's balance. */
export interface BalancePointDto {
  /** ISO time. */
  at: string;
  balance: number;
}

/** A supplier's prepaid balance as last read, with its trend and alert threshold. */
export interface SupplierBalanceDto {
  /** The supplier's name in metrics and settings ('moogold'). */
  vendor: string;
  /** The vendor's name as shown. */
  name: string;
  currency: string;
  /** The latest reading; null before the first. */
  balance: number | null;
  /** ISO time of the latest reading. */
  readAt: string | null;
  /** The reading about 24 hours before the latest, when there is one. */
  change24h: number | null;
  threshold: number;
  /** The latest reading is below the threshold. */
  low: boolean;
  /** The readings of the past 7 days, oldest first (at most 168). */
  trend: BalancePointDto[];
}

/** An alert emailed to the admins. */
export interface AlertDto {
  id: number;
  condition: string;
  subject: string;
  detail: string;
  recipients: number;
  /** ISO time. */
  sentAt: string;
}

/** The whole operations view. */
export interface OperationsStatusDto {
  /** ISO time the view was made. */
  generatedAt: string;
  /** The readiness probe's answer; null where the caller did not ask it. */
  readiness: ReadinessDto | null;
  jobs: JobQueueDto[];
  /** Jobs due over all kinds, the figure the backlog alert compares with its limit. */
  backlog: number;
  backlogLimit: number;
  needsReview: number;
  failedJobs: { count: number; latest: FailedJobDto[] };
  balances: SupplierBalanceDto[];
  alerts: AlertDto[];
}
