import type { Transaction } from "kysely";
import type { Db } from "../db/client.ts";
import type { Database } from "../db/schema.ts";
import {
  claimDueJobs,
  completeJobs,
  enqueueJob,
  failAbandonedJobs,
  failJob,
  jobQueueFigures,
  type JobRow,
  retryJob,
} from "../db/repositories/jobs.ts";
import { currentRequestId, runInScope } from "../observability/context.ts";
import { logger } from "../observability/log.ts";
import { countJobRun, type JobQueueFigures } from "../observability/metrics.ts";

/**
 * Queues a job in the caller's transaction, so it exists exactly when the data it acts on does;
 * it carries the id of the request (or of the job) that queued it into its own log lines.
 */
export async function queueJob(
  trx: Transaction<Database> | Db,
  kind: string,
  payload: Record<string, unknown>,
  runAt?: Date,
): Promise<void> {
  await enqueueJob(trx, { kind, payload, runAt, requestId: currentRequestId() });
  if (runAt) wakeJobsAt(runAt, kind);
}

/**
 * The job queue per kind, for GET /metrics (read at scrape time); each of `kinds` (the kinds this
 * process runs) is listed at 0 when none is waiting, so its series exist before any alert needs them.
 */
export async function readJobQueue(
  db: Db,
  kinds: readonly string[] = [],
): Promise<JobQueueFigures[]> {
  const figures = (await jobQueueFigures(db)).map((row) => ({
    kind: row.kind,
    queued: Number(row.queued),
    oldestAgeSeconds: Number(row.oldest_age_seconds),
    failed: Number(row.failed),
  }));
  const listed = new Set(figures.map((f) => f.kind));
  const idle = kinds.filter((kind) => !listed.has(kind))
    .map((kind) => ({ kind, queued: 0, oldestAgeSeconds: 0, failed: 0 }));
  return [...figures, ...idle];
}

/**
 * Runs one job; true when it is done, false when it should run again after the runner's backoff,
 * or the time it asks to run again (kept within ASKED_RETRY_BOUNDS_MS of the attempt's end).
 */
export type JobHandler = (payload: Record<string, unknown>) => Promise<boolean | Date>;

/**
 * A job kind whose last failed attempt needs more than a place in the failed-jobs list: an order
 * job hands its order to an operator (Needs review).
 */
export interface JobKind {
  run: JobHandler;
  /** Called once when a job of this kind has used its last attempt, with its last error. */
  exhausted: (payload: Record<string, unknown>, lastError: string) => Promise<void>;
}

export interface JobRunner {
  start(): void;
  stop(): Promise<void>;
  /**
   * Looks for due jobs of `kinds` (every kind when none is given) now instead of at the next tick
   * (after an order commits).
   */
  kick(...kinds: string[]): void;
  /**
   * One pass over due jobs of `kinds`, as a kick of them would run it; without kinds, of every
   * kind and the abandoned ones too. Returns how many ran.
   */
  runOnce(...kinds: string[]): Promise<number>;
}

/**
 * A lane's slots when JOB_CONCURRENCY is unset. An app instance runs its jobs beside its requests,
 * 10 of a kind at once. A dedicated worker (`cli worker`) runs 200: a supplier job mostly waits (two
 * round trips and the supplier's answer), and the more jobs a lane runs together, the more of them
 * share each statement. The calls out at one supplier stay capped by SUPPLIER_CONCURRENCY.
 */
export const JOB_SLOTS = { server: 10, worker: 200 } as const;

const KICK_KEY = Symbol.for("topup.jobs.kick");
const WAKE_KEY = Symbol.for("topup.jobs.wake");
const RUNNER_KEY = Symbol.for("topup.jobs.runner");

/** Whether this process's job runner is running and claiming, for /readyz. */
export interface JobRunnerHealth {
  alive(): boolean;
}

/** This process's started job runner, if one runs here (none under RUN_JOBS=false). */
export function jobRunnerHere(): JobRunnerHealth | undefined {
  return (globalThis as { [RUNNER_KEY]?: JobRunnerHealth })[RUNNER_KEY];
}

/**
 * A lane with free slots claims at least every interval; one that has not for this long, while
 * none of the lanes is full, has stopped.
 */
const STALLED_AFTER_MS = 30_000;

type Kick = (...kinds: string[]) => void;
type Wake = (at: Date, kind: string) => void;

/**
 * Asks this process's job runner to look for jobs of `kinds` (every kind when none is given) now;
 * a no-op where none runs. Naming the kind just queued spares the other lanes a claim each.
 */
export function kickJobs(...kinds: string[]): void {
  (globalThis as { [KICK_KEY]?: Kick })[KICK_KEY]?.(...kinds);
}

/**
 * Asks this process's job runner to look for jobs of `kind` at `at`, when a job this process
 * queued for later comes due (a status check, a retry); a no-op where none runs. Without it such a
 * job waits for its lane's next poll, up to a second late; with several processes, whichever
 * claims first runs it.
 */
export function wakeJobsAt(at: Date, kind: string): void {
  (globalThis as { [WAKE_KEY]?: Wake })[WAKE_KEY]?.(at, kind);
}

/**
 * Wakes for one kind are grouped into slots this long, so a burst of jobs due within one costs one
 * claim; the claim runs at the slot's end, when every job of the slot is due.
 */
const WAKE_SLOT_MS = 50;

/** Seconds before attempt n+1: 2, 4, 8 … capped at five minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(2 ** attempts, 300);
}

/**
 * How soon and how late a job may ask to run again (a supplier's Retry-After): never at once, so
 * a wait of 0 cannot spin, and never past ten minutes, whatever a supplier says.
 */
export const ASKED_RETRY_BOUNDS_MS = { min: 1_000, max: 600_000 } as const;

/** When a job runs again after attempt `attempts`: at the time it asked (bounded), else backoff. */
export function retryTimeOf(attempts: number, asked?: Date, now = Date.now()): Date {
  if (asked === undefined) return new Date(now + backoffSeconds(attempts) * 1000);
  const { min, max } = ASKED_RETRY_BOUNDS_MS;
  return new Date(now + Math.min(Math.max(asked.getTime() - now, min), max));
}

/** What a runner does with one kind of job. */
interface Lane {
  kind: string;
  handler: JobHandler;
  exhausted?: JobKind["exhausted"];
  /** The jobs of this kind running now. */
  running: Set<Promise<void>>;
  /** Jobs that finished, marked done by the lane's next claim (or when the runner stops). */
  finished: number[];
  /** A claim is under way (`claim`, which starts the jobs it claims); `again` asks for another. */
  claiming: boolean;
  claim?: Promise<unknown>;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/** Work a runner repeats on a timer, not queued (folding the dashboard's change lines). */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** How often a runner looks for jobs whose last attempt's worker died (failAbandonedJobs). */
const ABANDONED_SWEEP_MS = 60_000;

/**
 * Polls the jobs table (every instance and `cli worker` run one; SKIP LOCKED keeps them from
 * taking the same job) and runs each job with its handler. Each kind is a lane of its own, with
 * up to `concurrency` jobs running: a lane claims as many as it has free slots and claims again
 * as soon as one ends, so a slow kind (a reseller's webhook receiver that never answers) fills
 * only its own slots and never holds up supplier orders or mail. Every job has a bounded number
 * of attempts (jobs.max_attempts): after the last one it is failed, listed for an admin to retry,
 * and its kind's `exhausted` runs; it never loops forever.
 */
export function createJobRunner(
  db: Db,
  handlers: Record<string, JobHandler | JobKind>,
  options: {
    worker: string;
    intervalMs?: number;
    /** Jobs of one kind running at once in this process. */
    concurrency?: number;
    leaseSeconds?: number;
    /** Where problems go (tests); the process's logger when not given. */
    log?: (line: string) => void;
    /** Work done every `everyMs` while the runner runs (one run at a time), beside the jobs. */
    periodic?: PeriodicTask[];
  },
): JobRunner {
  const interval = options.intervalMs ?? 1000;
  const concurrency = options.concurrency ?? JOB_SLOTS.server;
  const log = options.log ?? ((line: string) => logger().error(line));
  const lanes: Lane[] = Object.entries(handlers).map(([kind, handler]) => ({
    kind,
    handler: typeof handler === "function" ? handler : handler.run,
    exhausted: typeof handler === "function" ? undefined : handler.exhausted,
    running: new Set(),
    finished: [],
    claiming: false,
    again: false,
  }));
  let stopped = true;
  let lastClaimAt = 0;
  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  let sweeping: Promise<void> | undefined;
  const periodic = (options.periodic ?? []).map((task) => ({
    task,
    timer: undefined as ReturnType<typeof setInterval> | undefined,
    running: undefined as Promise<void> | undefined,
  }));

  /**
   * The attempt did not finish the job: run it again later (at `asked`, when it named a time), or
   * give up after its last attempt.
   */
  async function release(
    lane: Lane | undefined,
    job: JobRow,
    error: string,
    asked?: Date,
  ): Promise<void> {
    if (job.attempts < job.max_attempts) {
      const retryAt = retryTimeOf(job.attempts, asked);
      await retryJob(db, job.id, error, retryAt);
      wake(retryAt, job.kind);
      return;
    }
    await failJob(db, job.id, error);
    log(`job ${job.id} (${job.kind}) gave up after ${job.attempts} attempts: ${error}`);
    await lane?.exhausted?.(job.payload, error);
  }

  /**
   * One attempt, in the scope of the request that queued the job (its id is on every line the job
   * and its supplier calls write, and on the jobs it queues), ending in one log line.
   */
  function runJob(lane: Lane, job: JobRow): Promise<void> {
    const scope = { requestId: job.request_id ?? `job-${job.id}` };
    return runInScope(scope, async () => {
      const started = performance.now();
      let outcome: "done" | "retry" | "failed" = "done";
      let error: string | undefined;
      try {
        const result = await lane.handler(job.payload);
        if (result === true) lane.finished.push(job.id);
        else {
          const asked = result === false ? undefined : result;
          error = asked ? `asked to run again at ${asked.toISOString()}` : "uncertain outcome";
          outcome = job.attempts < job.max_attempts ? "retry" : "failed";
          await release(lane, job, error, asked);
        }
      } catch (thrown) {
        error = thrown instanceof Error ? thrown.message : String(thrown);
        outcome = job.attempts < job.max_attempts ? "retry" : "failed";
        await release(lane, job, String(thrown)).catch((e) =>
          log(`job ${job.id} (${job.kind}): ${e instanceof Error ? e.message : e}`)
        );
      }
      countJobRun(job.kind, outcome);
      logger()[outcome === "done" ? "info" : "warn"]({
        msg: "job",
        job: job.id,
        kind: job.kind,
        attempt: job.attempts,
        outcome,
        ms: Math.round(performance.now() - started),
        ...(error === undefined ? {} : { error }),
      });
    });
  }

  /** Gives up on the jobs whose last attempt's worker died, as if that attempt had failed. */
  async function sweepAbandoned(): Promise<void> {
    for (const job of await failAbandonedJobs(db)) {
      await lanes.find((lane) => lane.kind === job.kind)?.exhausted?.(
        job.payload,
        "the worker running its last attempt stopped",
      );
    }
  }

  /**
   * Marks the lane's finished jobs done and claims due jobs of its kind into its free slots, in
   * one statement, and starts them; returns them. Finished jobs whose statement failed are kept
   * for the next one.
   */
  async function fill(lane: Lane): Promise<Promise<void>[]> {
    const free = concurrency - lane.running.size;
    if (free <= 0) return [];
    const finished = lane.finished.splice(0);
    const jobs = await claimDueJobs(
      db,
      options.worker,
      free,
      options.leaseSeconds ?? 60,
      lane.kind,
      finished,
    ).catch((error) => {
      lane.finished.push(...finished);
      throw error;
    });
    return jobs.map((job) => {
      const run: Promise<void> = runJob(lane, job).finally(() => {
        lane.running.delete(run);
        if (!stopped) void tick(lane);
      });
      lane.running.add(run);
      return run;
    });
  }

  function schedule(lane: Lane, delay: number) {
    if (stopped) return;
    clearTimeout(lane.timer);
    lane.timer = setTimeout(() => tick(lane), delay);
  }

  async function tick(lane: Lane): Promise<void> {
    clearTimeout(lane.timer);
    if (lane.claiming) {
      lane.again = true;
      return;
    }
    lane.claiming = true;
    lane.again = false;
    lastClaimAt = Date.now();
    try {
      lane.claim = fill(lane);
      await lane.claim;
    } catch (error) {
      log(`job runner (${lane.kind}): ${error instanceof Error ? error.message : error}`);
    } finally {
      lane.claiming = false;
      lane.claim = undefined;
    }
    // A full lane claims again when one of its jobs ends; a kick during the claim means now.
    if (lane.again) schedule(lane, 0);
    else if (lane.running.size < concurrency) schedule(lane, interval);
  }

  /** Started, not stopped, and claiming: a lane claimed lately, or one is full of running jobs. */
  function alive(): boolean {
    if (stopped) return false;
    return Date.now() - lastClaimAt < STALLED_AFTER_MS ||
      lanes.some((lane) => lane.running.size >= concurrency);
  }

  const kick: Kick = (...kinds) => {
    for (const lane of lanes) {
      if (!kinds.length || kinds.includes(lane.kind)) schedule(lane, 0);
    }
  };

  /** One timer per kind and slot of WAKE_SLOT_MS, at the slot's end. */
  const wakes = new Map<string, ReturnType<typeof setTimeout>>();
  const wake: Wake = (at, kind) => {
    if (stopped || !lanes.some((lane) => lane.kind === kind)) return;
    const slotEnd = (Math.floor(at.getTime() / WAKE_SLOT_MS) + 1) * WAKE_SLOT_MS;
    const key = `${kind} ${slotEnd}`;
    if (wakes.has(key)) return;
    wakes.set(
      key,
      setTimeout(() => {
        wakes.delete(key);
        kick(kind);
      }, Math.max(0, slotEnd - Date.now())),
    );
  };

  return {
    start() {
      stopped = false;
      (globalThis as { [KICK_KEY]?: Kick })[KICK_KEY] = kick;
      (globalThis as { [WAKE_KEY]?: Wake })[WAKE_KEY] = wake;
      (globalThis as { [RUNNER_KEY]?: JobRunnerHealth })[RUNNER_KEY] = { alive };
      sweepTimer = setInterval(() => {
        sweeping ??= sweepAbandoned()
          .catch((e) => log(`job runner: ${e instanceof Error ? e.message : e}`))
          .finally(() => sweeping = undefined);
      }, ABANDONED_SWEEP_MS);
      for (const p of periodic) {
        p.timer = setInterval(() => {
          p.running ??= p.task.run().then(() => {})
            .catch((e) => log(`${p.task.name}: ${e instanceof Error ? e.message : e}`))
            .finally(() => p.running = undefined);
        }, p.task.everyMs);
      }
      kick();
    },
    async stop() {
      stopped = true;
      const g = globalThis as { [RUNNER_KEY]?: JobRunnerHealth };
      if (g[RUNNER_KEY]?.alive === alive) g[RUNNER_KEY] = undefined;
      clearInterval(sweepTimer);
      for (const timer of wakes.values()) clearTimeout(timer);
      wakes.clear();
      await sweeping;
      for (const p of periodic) clearInterval(p.timer);
      await Promise.all(periodic.map((p) => p.running));
      for (const lane of lanes) clearTimeout(lane.timer);
      // A claim under way starts the jobs it claims after this point: wait for claims and jobs
      // until none is left, so nothing touches the database once stop resolves.
      for (;;) {
        const pending = lanes.flatMap((
          lane,
        ) => [...(lane.claim ? [lane.claim] : []), ...lane.running]);
        if (!pending.length) break;
        await Promise.allSettled(pending);
      }
      await completeJobs(db, lanes.flatMap((lane) => lane.finished.splice(0)));
    },
    kick,
    async runOnce(...kinds) {
      if (!kinds.length) await sweepAbandoned();
      const chosen = kinds.length ? lanes.filter((lane) => kinds.includes(lane.kind)) : lanes;
      const started = (await Promise.all(chosen.map(fill))).flat();
      await Promise.all(started);
      await completeJobs(db, chosen.flatMap((lane) => lane.finished.splice(0)));
      return started.length;
    },
  };
}
