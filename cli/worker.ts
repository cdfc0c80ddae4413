import type { Command } from "commander";
import { hostname } from "node:os";
import { createJobRunner, JOB_SLOTS } from "../src/domain/jobs.ts";
import { dashboardRollup } from "../src/domain/admin/dashboard.ts";
import { orderJobHandlers } from "../src/domain/orders/jobs.ts";
import { refundJobHandlers } from "../src/domain/payments/consumer-refunds.ts";
import { mailJobHandlers } from "../src/domain/mail/outbox.ts";
import { webhookJobHandlers } from "../src/domain/resellers/webhooks.ts";
import { getSecretBox } from "../src/domain/auth/app-secret.ts";
import { operationsJobHandlers, scheduleOperationsWatch } from "../src/domain/operations/watch.ts";
import { getMailer } from "../src/integrations/mail/mailer.ts";
import { getConfig } from "../src/config.ts";
import { closeDb, getDb } from "../src/db/client.ts";
import {
  checkAppTables,
  cliDatabase,
  cliHitPay,
  cliSuppliers,
  databaseName,
  resolveCliOrigin,
} from "./io.ts";

/** `worker`: runs only the job queue, for a box that serves no HTTP. */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "Run the job queue (supplier calls after orders, HitPay refunds, outgoing mail, webhooks) " +
        "until stopped",
    )
    .action(async () => {
      const options = cliDatabase();
      const db = getDb(options);
      await checkAppTables(db, databaseName(options));
      const config = getConfig();
      resolveCliOrigin();
      const handlers = {
        ...orderJobHandlers(db, cliSuppliers),
        ...refundJobHandlers(db, cliHitPay),
        ...operationsJobHandlers(db, cliSuppliers),
        ...mailJobHandlers(db, () => getMailer(config)),
        ...webhookJobHandlers(db, () => getSecretBox(db, config.appSecret), {
          ...config.webhooks,
          mode: config.mode,
        }),
      };
      const runner = createJobRunner(db, handlers, {
        worker: `${hostname()}:${Deno.pid}:worker`,
        periodic: [dashboardRollup(db)],
        concurrency: config.jobConcurrency ?? JOB_SLOTS.worker,
      });
      runner.start();
      const watch = () =>
        scheduleOperationsWatch(db).catch((error) => console.error(`operations watch: ${error}`));
      watch();
      const watching = setInterval(watch, config.watchIntervalSeconds * 1000);
      console.log(`Worker running (pid ${Deno.pid}); SIGTERM or Ctrl-C stops it.`);
      // npm runs a script through sh and passes its SIGTERM to that shell only; package.json's
      // scripts `exec` deno, so the signal reaches this process instead of orphaning it.
      const stop = async () => {
        clearInterval(watching);
        await runner.stop();
        await closeDb();
        Deno.exit(0);
      };
      Deno.addSignalListener("SIGTERM", stop);
      Deno.addSignalListener("SIGINT", stop);
    });
}
