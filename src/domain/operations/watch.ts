// The operations watch: a job that reads every supplier's balance and checks the alert
// conditions. Each serving instance queues it every WATCH_INTERVAL_SECONDS (cli/serve.ts); one
// waits at a time however many instances ask (migration 0016), and any job runner runs it.

import type { Db } from "../../db/client.ts";
import { enqueueWatchJob, WATCH_JOB_KIND } from "../../db/repositories/operations.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import { type JobHandler, kickJobs } from "../jobs.ts";
import { readAlertSettings } from "./alert-settings.ts";
import { checkAlerts } from "./alerts.ts";
import { type BalanceReading, readSupplierBalances } from "./balances.ts";

export { WATCH_JOB_KIND };

/** What one round of the watch did. */
export interface WatchReport {
  readings: BalanceReading[];
  /** The conditions whose alert was sent. */
  alerts: string[];
}

/** One round: read the balances, then check and send the alerts. */
export async function runOperationsWatch(db: Db, suppliers: Suppliers): Promise<WatchReport> {
  const readings = await readSupplierBalances(db, suppliers);
  const alerts = await checkAlerts(db, readings, await readAlertSettings(db));
  return { readings, alerts };
}

/** Queues a round of the watch unless one is waiting, and asks this process's runner to run it. */
export async function scheduleOperationsWatch(db: Db): Promise<void> {
  if (await enqueueWatchJob(db)) kickJobs(WATCH_JOB_KIND);
}

/** The watch's job kind with its handler. */
export function operationsJobHandlers(
  db: Db,
  suppliers: () => Suppliers,
): Record<string, JobHandler> {
  return {
    [WATCH_JOB_KIND]: async () => {
      await runOperationsWatch(db, suppliers());
      return true;
    },
  };
}
