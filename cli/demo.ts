import type { Command } from "commander";
import { getConfig } from "../src/config.ts";
import {
  describeDemoLeftovers,
  findDemoLeftovers,
  removeDemoData,
} from "../src/domain/admin/go-live.ts";
import { hasNoAdmins } from "../src/domain/auth/users.ts";
import { cliActor } from "../src/domain/actor.ts";
import { confirmOrRefuse, withDb } from "./io.ts";

/** `demo remove`: takes what the demo left out of a database that is going live. */
export function registerDemoCommands(program: Command): void {
  const demo = program.command("demo").description("The demo's data in this database");
  demo
    .command("remove")
    .description(
      "Remove what the demo left, which production refuses to start with: the demo admin and " +
        "reseller, any account's published password, the demo's sealing key (its secrets are " +
        "sealed again with APP_SECRET), the demo games and mail. Lists it and asks first; audited",
    )
    .option("--yes", "remove without asking (for scripts)")
    .option("--json", "print what was removed as JSON")
    .action(async (opts: { yes?: boolean; json?: boolean }) => {
      const config = getConfig();
      const report = await withDb(async (db) => {
        const found = describeDemoLeftovers(await findDemoLeftovers(db));
        if (!found.length) return { removed: [], adminLeft: !(await hasNoAdmins(db)) };
        console.error("This removes from the database:");
        for (const line of found) console.error(`  ${line}`);
        await confirmOrRefuse("Remove the demo's data listed above", "remove", opts.yes);
        const removed = await removeDemoData(db, {
          appSecret: config.appSecret,
          actor: cliActor(),
        });
        return { removed, adminLeft: !(await hasNoAdmins(db)) };
      });
      if (opts.json) {
        console.log(JSON.stringify(report, null, 2));
        return;
      }
      if (!report.removed.length) console.log("No demo data here: nothing to remove.");
      for (const line of report.removed) console.log(line);
      if (!report.adminLeft) {
        console.log(
          "No admin is left: set ADMIN_EMAIL and ADMIN_PASSWORD for the next start, or run " +
            "`npm run cli -- admin create`.",
        );
      }
    });
}
