import type { Command } from "commander";
import { examineSetup } from "../src/domain/admin/doctor.ts";
import { inspectDatabaseForGoLive } from "../src/domain/admin/go-live.ts";
import { dbOptionsOf } from "../src/config.ts";
import { closeDb, getDb } from "../src/db/client.ts";

/** `doctor [--live]`: is the configuration fit for its mode, and do the outside services answer? */
export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "Check the configuration for APP_MODE as `serve` would (every problem, one line each) and " +
        "show each outside service as simulated or live; exit 1 on any problem",
    )
    .option(
      "--live",
      "also make one read-only call to each live service (MooGold and EliteDias balances, a " +
        "HitPay key check, the Yahoo USD→SGD rate) and say what answered or why not; nothing " +
        "is ordered or paid",
    )
    .option("--json", "print { ok, mode, problems, services } as JSON, for scripts")
    .action(async (opts: { live?: boolean; json?: boolean }) => {
      const { lines, ...report } = await examineSetup(Deno.env.toObject(), {
        live: opts.live ?? false,
        database: async (config) => {
          try {
            return await inspectDatabaseForGoLive(getDb(dbOptionsOf(config)), config);
          } finally {
            await closeDb();
          }
        },
      });
      if (opts.json) console.log(JSON.stringify(report, null, 2));
      else for (const line of lines) console.log(line);
      if (!report.ok) Deno.exit(1);
    });
}
