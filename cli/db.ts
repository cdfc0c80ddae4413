import type { Command } from "commander";
import {
  appliedMigrations,
  migrateDownOne,
  migrateToLatest,
  migrationState,
  withBootstrapLock,
} from "../src/db/client.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { seedDemoUsers } from "../src/domain/auth/bootstrap.ts";
import { confirmOrRefuse, report, withDb } from "./io.ts";
import { checkInvariants } from "../src/domain/ledger/invariants.ts";
import { fetchSupplierCounts } from "../src/integrations/simulator-counts.ts";
import { purgeExpired, RETENTION } from "../src/domain/housekeeping.ts";

/** Each migration this code knows, and any the database has that it does not, with its state. */
async function migrationRows(
  db: Parameters<typeof migrationState>[0],
): Promise<{ name: string; state: "applied" | "pending" | "unknown"; appliedAt: string | null }[]> {
  const applied = new Map((await appliedMigrations(db) ?? []).map((m) => [m.name, m.appliedAt]));
  const known = Object.keys(MIGRATIONS).map((name) => ({
    name,
    state: applied.has(name) ? "applied" as const : "pending" as const,
    appliedAt: applied.get(name)?.toISOString() ?? null,
  }));
  const unknown = [...applied].filter(([name]) => !(name in MIGRATIONS)).map(([name, at]) => ({
    name,
    state: "unknown" as const,
    appliedAt: at.toISOString(),
  }));
  return [...known, ...unknown];
}

/** `migrate [--dry-run]`, `migrate status`, `migrate down`, `seed`, `ledger check`, `maintenance`. */
export function registerDbCommands(program: Command): void {
  const migrate = program
    .command("migrate")
    .description(
      "Apply pending database migrations (creating the embedded database when there is none); " +
        "`migrate status` lists them, `migrate down` undoes the last one",
    )
    .option("--dry-run", "list the migrations that would be applied, and apply none")
    .option("--json", "print the result as JSON")
    .action(async (opts: { dryRun?: boolean; json?: boolean }) => {
      if (opts.dryRun) {
        const { pending } = await withDb((db) => migrationState(db), { migrates: true });
        const would = pending.length ? `Would apply: ${pending.join(", ")}` : "Nothing to apply";
        console.log(opts.json ? JSON.stringify({ pending }) : would);
        return;
      }
      const applied = await withDb((db) => migrateToLatest(db), { mayCreate: true });
      if (opts.json) console.log(JSON.stringify({ applied }));
      else report(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date");
    });

  migrate
    .command("status")
    .description(
      "List every migration as applied (with when), pending, or unknown to this version (the " +
        "database was migrated by a newer one)",
    )
    .option("--json", "print the list as JSON")
    // `migrate` itself takes --json too, and commander gives it to the parent: read both.
    .action(async (_opts: unknown, command: Command) => {
      const opts = command.optsWithGlobals<{ json?: boolean }>();
      const rows = await withDb((db) => migrationRows(db), { migrates: true });
      if (opts.json) return console.log(JSON.stringify(rows, null, 2));
      for (const row of rows) {
        console.log(
          `${row.state.padEnd(8)} ${row.name}${row.appliedAt ? `  ${row.appliedAt}` : ""}`,
        );
      }
    });

  migrate
    .command("down")
    .description(
      "Undo the last applied migration with its down(), which may drop the tables or columns it " +
        "made and what they hold; asks first (--yes without a terminal)",
    )
    .option("--yes", "confirm without being asked (scripts; there is no terminal to ask on)")
    .option("--json", "print the result as JSON")
    .action(async (_opts: unknown, command: Command) => {
      const opts = command.optsWithGlobals<{ yes?: boolean; json?: boolean }>();
      const undone = await withDb(async (db, name) => {
        const last = (await appliedMigrations(db))?.at(-1)?.name;
        if (!last) throw new Error(`${name} has no applied migration to undo`);
        await confirmOrRefuse(`migrate down undoes ${last} in ${name}`, last, opts.yes);
        return await migrateDownOne(db);
      }, { migrates: true });
      if (opts.json) console.log(JSON.stringify({ undone }));
      else console.log(`Undone: ${undone}`);
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
      "Delete expired sessions and old login counters, idempotency keys older than " +
        `${RETENTION.idempotencyKeyDays} days, finished jobs older than ` +
        `${RETENTION.finishedJobDays} days and webhook events older than ` +
        `${RETENTION.webhookEventDays} days (the app also does this hourly)`,
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
