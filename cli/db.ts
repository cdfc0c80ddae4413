import type { Command } from "commander";
import { migrateToLatest, withBootstrapLock } from "../src/db/client.ts";
import { seedDemoUsers } from "../src/domain/auth/bootstrap.ts";
import { report, withDb } from "./io.ts";
import { checkInvariants } from "../src/domain/ledger/invariants.ts";
import { fetchSupplierCounts } from "../src/integrations/simulator-counts.ts";
import { purgeExpired, RETENTION } from "../src/domain/housekeeping.ts";

/** `migrate`, `seed`, `ledger check`, `maintenance`. */
export function registerDbCommands(program: Command): void {
  program
    .command("migrate")
    .description(
      "Apply pending database migrations (creating the embedded database when there is none)",
    )
    .option("--json", "print the result as JSON")
    .action(async (opts: { json?: boolean }) => {
      const applied = await withDb((db) => migrateToLatest(db), { mayCreate: true });
      if (opts.json) console.log(JSON.stringify({ applied }));
      else report(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date");
    });

  program
    .command("seed")
    .description("Load demo data into the database")
    .requiredOption(
      "--demo",
      "create the demo admin and demo reseller when missing",
    )
    .action(async () => {
      const lines = await withDb(async (db) => {
        await migrateToLatest(db);
        return await withBootstrapLock(db, (conn) => seedDemoUsers(conn));
      }, { mayCreate: true });
      for (const line of lines) report(line);
    });

  program
    .command("ledger")
    .description("Reseller balances and their history")
    .command("check")
    .description(
      "Check the invariants: balance = sum of history deltas, rows chain, nothing negative; every debited order " +
        "open, delivered or refunded once; every paid consumer order verified and delivered or in error; " +
        "with --simulators, no order at the suppliers twice. Exits 1 on any violation",
    )
    .option("--json", "print violations as JSON")
    .option(
      "--simulators <url>",
      "a running server in simulator mode: also check what its supplier simulators received",
    )
    .action(async (opts: { json?: boolean; simulators?: string }) => {
      const supplierCounts = opts.simulators ? await fetchSupplierCounts(opts.simulators) : null;
      if (opts.simulators && !supplierCounts) {
        console.error(`No supplier simulators answer at ${opts.simulators}`);
        Deno.exitCode = 2;
        return;
      }
      const violations = await withDb((db) => checkInvariants(db, { supplierCounts }));
      if (opts.json) console.log(JSON.stringify(violations, null, 2));
      else if (!violations.length) {
        report(
          supplierCounts
            ? "Invariants hold: ledger, orders, consumer payments and supplier sends"
            : "Invariants hold: ledger, orders and consumer payments",
        );
      } else {
        for (const v of violations) console.log(`${v.invariant}: ${v.subject}: ${v.problem}`);
      }
      if (violations.length) Deno.exitCode = 1;
    });

  program
    .command("maintenance")
    .description(
      `Delete expired sessions, old login counters, idempotency keys older than ${RETENTION.idempotencyKeyDays} days ` +
        `jobs finished and webhook events made over ${RETENTION.finishedJobDays} and ${RETENTION.webhookEventDays} days ago ` +
        "(cron; the app also does this hourly)",
    )
    .option("--json", "print the counts as JSON")
    .action(async (opts: { json?: boolean }) => {
      const deleted = await withDb((db) => purgeExpired(db));
      if (opts.json) console.log(JSON.stringify(deleted));
      else {
        report(
          `Deleted ${deleted.sessions} session(s), ${deleted.loginAttempts} login counter(s), ` +
            `${deleted.idempotencyKeys} idempotency key(s), ${deleted.jobs} finished job(s), ` +
            `${deleted.webhookEvents} webhook event(s)`,
        );
      }
    });
}
