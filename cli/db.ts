import type { Command } from "commander";
import { migrateToLatest, withBootstrapLock } from "../src/db/client.ts";
import { seedDemoUsers } from "../src/domain/bootstrap.ts";
import { withDb } from "./io.ts";
import { checkLedger } from "../src/domain/ledger.ts";
import { purgeExpired, RETENTION } from "../src/domain/housekeeping.ts";

/** `migrate` and `seed`. */
export function registerDbCommands(program: Command): void {
  program
    .command("migrate")
    .description("Apply pending database migrations")
    .option("--json", "print the result as JSON")
    .action(async (opts: { json?: boolean }) => {
      const applied = await withDb((db) => migrateToLatest(db));
      if (opts.json) console.log(JSON.stringify({ applied }));
      else {console.log(
          applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date",
        );}
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
      });
      for (const line of lines) console.log(line);
    });

  program
    .command("ledger")
    .description("Reseller balances and their history")
    .command("check")
    .description(
      "Check every reseller: balance = sum of history deltas, rows chain, nothing negative; exits 1 on any violation",
    )
    .option("--json", "print violations as JSON")
    .action(async (opts: { json?: boolean }) => {
      const violations = await withDb((db) => checkLedger(db));
      if (opts.json) console.log(JSON.stringify(violations, null, 2));
      else if (!violations.length) console.log("Ledger OK: every balance matches its history");
      else {for (const v of violations) {
          console.log(`${v.resellerName} (${v.resellerId}): ${v.problem}`);
        }}
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
      const report = await withDb((db) => purgeExpired(db));
      if (opts.json) console.log(JSON.stringify(report));
      else {
        console.log(
          `Deleted ${report.sessions} session(s), ${report.loginAttempts} login counter(s), ` +
            `${report.idempotencyKeys} idempotency key(s), ${report.jobs} finished job(s), ` +
            `${report.webhookEvents} webhook event(s)`,
        );
      }
    });
}
