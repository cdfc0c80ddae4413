import type { Command } from "commander";
import { readAuditForOperator } from "../src/domain/admin/audit.ts";
import { withDb } from "./io.ts";

/** `audit [--since] [--actor] [--action] [--target] [--json]`: the audit log, newest first. */
export function registerAuditCommand(program: Command): void {
  program
    .command("audit")
    .description("Print the audit log (who changed what, before and after), newest first")
    .option("--since <time>", "only entries at or after this ISO date or time, e.g. 2026-01-31")
    .option("--actor <text>", "substring of the actor's name or id")
    .option("--action <text>", "substring of the action, e.g. admin.delete")
    .option("--target <text>", "substring of the target's type or id")
    .option("--json", "print the entries as JSON")
    .action(async (opts: {
      since?: string;
      actor?: string;
      action?: string;
      target?: string;
      json?: boolean;
    }) => {
      const since = opts.since === undefined ? undefined : new Date(opts.since);
      if (since && Number.isNaN(since.getTime())) {
        throw new Error(`--since expects an ISO date or time, got '${opts.since}'`);
      }
      const entries = await withDb((db) =>
        readAuditForOperator(db, {
          since,
          actor: opts.actor,
          action: opts.action,
          target: opts.target,
        })
      );
      if (opts.json) {
        console.log(JSON.stringify(entries, null, 2));
        return;
      }
      for (const e of entries) {
        const target = e.targetType ? ` ${e.targetType}:${e.targetId ?? ""}` : "";
        const change = e.before || e.after
          ? ` ${JSON.stringify(e.before)} -> ${JSON.stringify(e.after)}`
          : "";
        console.log(
          `${e.at} ${e.actorType}:${e.actorName || e.actorId} ${e.action}${target}${change}`,
        );
      }
    });
}
