import type { Command } from "commander";
import { ageText } from "../src/shared/age-text.ts";
import { operationsStatus } from "../src/domain/operations/status.ts";
import { checkReadiness } from "../src/domain/operations/readiness.ts";
import type { OperationsStatusDto } from "../src/shared/operations-types.ts";
import { withDb } from "./io.ts";

const money = (n: number) => n.toFixed(2);

/** The operations view as lines for a terminal. */
function statusLines(status: OperationsStatusDto): string[] {
  const lines: string[] = [`Status at ${status.generatedAt}`];
  if (status.readiness) {
    lines.push(`Readiness: ${status.readiness.ready ? "ready" : "NOT READY"}`);
    for (const check of status.readiness.checks) {
      lines.push(
        `  ${check.ok ? "ok  " : "FAIL"} ${check.name}${check.detail ? `: ${check.detail}` : ""}`,
      );
    }
  }
  lines.push(`Job queue: ${status.backlog} due (alert above ${status.backlogLimit})`);
  if (!status.jobs.length) lines.push("  (empty)");
  for (const job of status.jobs) {
    lines.push(
      `  ${job.kind.padEnd(22)} ${String(job.pending).padStart(6)} pending ` +
        `${String(job.due).padStart(6)} due  oldest ${ageText(job.oldestDueSeconds)}`,
    );
  }
  lines.push(`Needs review: ${status.needsReview}`);
  lines.push(`Failed jobs: ${status.failedJobs.count}`);
  for (const job of status.failedJobs.latest) {
    lines.push(`  #${job.id} ${job.kind} ${job.subject} ${job.failedAt}: ${job.lastError}`);
  }
  lines.push("Supplier balances:");
  for (const b of status.balances) {
    const shown = b.balance === null
      ? "not read yet"
      : `${money(b.balance)} ${b.currency}${
        b.change24h === null ? "" : ` (24h ${b.change24h >= 0 ? "+" : ""}${money(b.change24h)})`
      } at ${b.readAt}`;
    lines.push(
      `  ${b.name.padEnd(10)} ${shown}  threshold ${money(b.threshold)}${b.low ? "  LOW" : ""}`,
    );
  }
  lines.push(`Recent alerts: ${status.alerts.length ? "" : "none"}`);
  for (const alert of status.alerts) lines.push(`  ${alert.sentAt} ${alert.subject}`);
  return lines;
}

/** `status [--json]`: the admin console's Operations screen for a terminal or a script. */
export function registerStatusCommand(program: Command): void {
  program
    .command("status")
    .description(
      "Show readiness (database, migrations), the job queue per kind, Needs review, failed jobs, " +
        "supplier balances and recent alerts (the admin console's Operations screen)",
    )
    .option("--json", "print the same as JSON, for scripts")
    .action(async (opts: { json?: boolean }) => {
      // This process runs no job runner: its readiness is the database's and the migrations',
      // checked after the status's own queries, so an embedded database's start-up (seconds on
      // a busy machine) is not taken for a database that does not answer.
      const status = await withDb(async (db) => {
        const found = await operationsStatus(db);
        return { ...found, readiness: await checkReadiness(db, { runJobs: false }) };
      });
      if (opts.json) console.log(JSON.stringify(status, null, 2));
      else for (const line of statusLines(status)) console.log(line);
    });
}
