// Whether this process should be sent traffic (GET /readyz, the operations screen): its database
// answers, every migration this code needs is applied, its job runner runs, and it is not stopping.
import { type Db, migrationState } from "../../db/client.ts";
import { jobRunnerHere } from "../jobs.ts";

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: ReadinessCheck[];
}

/** How long the database may take to answer before it counts as unreachable. */
const DATABASE_TIMEOUT_MS = 2000;

/**
 * The readiness of this process, one check per part: `database` (reachable within `timeoutMs`,
 * 2 s by default), `migrations` (none pending), `jobs` (this process's runner is running, when it
 * is meant to run one: `runJobs`) and, while a stop drains, `shutdown`. With `checkCode`, a
 * database a newer version migrated fails a `code` check: the operator's `status` asks for it, a
 * serving instance does not, as a rolling deploy migrates the database while the older instances
 * still serve until they are replaced. Ready when every check is ok.
 */
export async function checkReadiness(
  db: Db,
  options: { runJobs?: boolean; stopping?: boolean; timeoutMs?: number; checkCode?: boolean } = {},
): Promise<Readiness> {
  const checks: ReadinessCheck[] = [];
  const timeoutMs = options.timeoutMs ?? DATABASE_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    const { pending, unknown } = await Promise.race([migrationState(db), timeout]);
    checks.push({ name: "database", ok: true });
    checks.push(
      pending.length
        ? { name: "migrations", ok: false, detail: `not applied: ${pending.join(", ")}` }
        : { name: "migrations", ok: true },
    );
    if (options.checkCode && unknown.length) {
      checks.push({
        name: "code",
        ok: false,
        detail: `older than the database, which has ${unknown.join(", ")}: run the newer version`,
      });
    }
  } catch (error) {
    const detail = `unreachable: ${error instanceof Error ? error.message : String(error)}`;
    checks.push({ name: "database", ok: false, detail });
    checks.push({ name: "migrations", ok: false, detail: "unknown: the database is unreachable" });
  } finally {
    clearTimeout(timer);
  }
  if (options.runJobs ?? true) {
    const runner = jobRunnerHere();
    checks.push(
      runner?.alive()
        ? { name: "jobs", ok: true }
        : { name: "jobs", ok: false, detail: runner ? "stalled" : "not running" },
    );
  } else {
    checks.push({ name: "jobs", ok: true, detail: "not run here (RUN_JOBS=false)" });
  }
  if (options.stopping) {
    checks.push({ name: "shutdown", ok: false, detail: "stopping: finishing in-flight requests" });
  }
  return { ready: checks.every((check) => check.ok), checks };
}
