import type { Command } from "commander";
import { ageText } from "../src/shared/age-text.ts";
import { operationsStatus } from "../src/domain/operations/status.ts";
import { checkReadiness, type Readiness } from "../src/domain/operations/readiness.ts";
import type { OperationsStatusDto } from "../src/shared/operations-types.ts";
import { closeDb, type Db } from "../src/db/client.ts";
import { openDb } from "./io.ts";

const money = (n: number) => n.toFixed(2);

/** Readiness, and the operations view when the database gave one, as lines for a terminal. */
function statusLines(status: StatusAnswer): string[] {
  const lines: string[] = [`Status at ${status.generatedAt}`];
  if (status.readiness) {
    lines.push(`Readiness: ${status.readiness.ready ? "ready" : "NOT READY"}`);
    for (const check of status.readiness.checks) {
      lines.push(
        `  ${check.ok ? "ok  " : "FAIL"} ${check.name}${check.detail ? `: ${check.detail}` : ""}`,
      );
    }
  }
  if (!("jobs" in status)) return lines;
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

/** `status`'s exit code for each state of readiness, for a monitor or cron to branch on. */
export const STATUS_EXIT = { ready: 0, unreachable: 2, migrationsPending: 3, codeOlder: 4 };

function exitCodeOf(readiness: Readiness): number {
  const failed = (name: string) => readiness.checks.some((c) => c.name === name && !c.ok);
  if (failed("database")) return STATUS_EXIT.unreachable;
  if (failed("code")) return STATUS_EXIT.codeOlder;
  if (failed("migrations")) return STATUS_EXIT.migrationsPending;
  return readiness.ready ? STATUS_EXIT.ready : 1;
}

/** What `status` answers: the operations view, or only readiness when the database gave none. */
type StatusAnswer = OperationsStatusDto | Pick<OperationsStatusDto, "generatedAt" | "readiness">;

/** Resolves to "timeout" once `ms` have passed; `cancel` lets the process exit before. */
function after(ms: number): { done: Promise<"timeout">; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<"timeout">((resolve) =>
    timer = setTimeout(() => resolve("timeout"), ms)
  );
  return { done, cancel: () => clearTimeout(timer) };
}

/**
 * Readiness and the operations view within `seconds`, whatever the database does: one that takes
 * connections and never answers would otherwise hold the command for good.
 */
async function statusWithin(db: Db, seconds: number): Promise<StatusAnswer> {
  const deadline = after(seconds * 1000);
  try {
    // This process runs no job runner: its readiness is the database's and the migrations'.
    const readiness = await checkReadiness(db, {
      runJobs: false,
      timeoutMs: seconds * 1000,
      checkCode: true,
    });
    const answer = { generatedAt: new Date().toISOString(), readiness };
    if (exitCodeOf(readiness) === STATUS_EXIT.unreachable) return answer;
    // Pending migrations may leave the view's tables unreadable: readiness still says why.
    const view = await Promise.race([operationsStatus(db).catch(() => null), deadline.done]);
    if (view === "timeout") {
      const detail = `unreachable: no answer within ${seconds} s`;
      return {
        ...answer,
        readiness: {
          ready: false,
          checks: readiness.checks.map((c) =>
            c.name === "database" ? { name: c.name, ok: false, detail } : c
          ),
        },
      };
    }
    return view ? { ...view, readiness } : answer;
  } finally {
    deadline.cancel();
  }
}

/** `status [--json] [--timeout S]`: the admin console's Operations screen for a terminal or a script. */
export function registerStatusCommand(program: Command): void {
  program
    .command("status")
    .description(
      "Show readiness (database, migrations), the job queue per kind, Needs review, failed jobs, " +
        "supplier balances and recent alerts (the admin console's Operations screen). Exits 0 " +
        "when ready, 2 when the database does not answer, 3 when migrations are pending, 4 when " +
        "a newer version migrated the database, 1 when the command itself failed",
    )
    .option("--json", "print the same as JSON, for scripts")
    .option("--timeout <seconds>", "count a database silent this long as unreachable", "10")
    .action(async (opts: { json?: boolean; timeout: string }) => {
      const seconds = Number(opts.timeout);
      if (!(seconds > 0)) {
        throw new Error(`--timeout must be a number of seconds, got '${opts.timeout}'`);
      }
      const status = await statusWithin(openDb(), seconds);
      if (opts.json) console.log(JSON.stringify(status, null, 2));
      else for (const line of statusLines(status)) console.log(line);
      // A connection still waiting for the database would hold the process: closing gets a moment.
      const closing = after(1000);
      await Promise.race([closeDb(), closing.done]);
      closing.cancel();
      Deno.exit(exitCodeOf(status.readiness!));
    });
}
