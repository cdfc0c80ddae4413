import type { Command } from "commander";
import { getConfig } from "../src/config.ts";
import {
  describeDemoLeftovers,
  findDemoLeftovers,
  removeDemoData,
} from "../src/domain/admin/go-live.ts";
import { hasNoAdmins } from "../src/domain/auth/users.ts";
import { cliActor } from "../src/domain/actor.ts";
import { withDb } from "./io.ts";

/** Asks on the terminal; true only for a typed "yes". */
async function confirmOnTerminal(question: string): Promise<boolean> {
  await Deno.stdout.write(new TextEncoder().encode(`${question} Type yes to continue: `));
  const buffer = new Uint8Array(64);
  const n = await Deno.stdin.read(buffer);
  return n !== null && new TextDecoder().decode(buffer.subarray(0, n)).trim() === "yes";
}

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
        if (!opts.yes) {
          if (!Deno.stdin.isTerminal()) {
            throw new Error(
              "demo remove: not asking without a terminal; run it with --yes to remove:\n" +
                found.map((line) => `  ${line}`).join("\n"),
            );
          }
          console.log("This removes from the database:");
          for (const line of found) console.log(`  ${line}`);
          if (!await confirmOnTerminal("Remove it?")) throw new Error("Nothing removed.");
        }
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
