import type { Db } from "../db/client.ts";
import { claimDueJobs, completeJob, retryJob } from "../db/repositories/jobs.ts";

/** Runs one job; true when it is done, false when it should run again later. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<boolean>;

export interface JobRunner {
  start(): void;
  stop(): Promise<void>;
  /** Looks for due jobs now instead of at the next tick (after an order commits). */
  kick(): void;
  /** One pass over due jobs; returns how many ran. */
  runOnce(): Promise<number>;
}

const KICK_KEY = Symbol.for("topup.jobs.kick");

/** Asks this process's job runner to look for work now; a no-op where none runs. */
export function kickJobs(): void {
  (globalThis as { [KICK_KEY]?: () => void })[KICK_KEY]?.();
}

/** Seconds before attempt n+1: 2, 4, 8 … capped at five minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(2 ** attempts, 300);
}

/**
 * Polls the jobs table (every instance and `cli worker` run one; SKIP LOCKED keeps them from
 * taking the same job) and runs each job with its handler.
 */
export function createJobRunner(
  db: Db,
  handlers: Record<string, JobHandler>,
  options: {
    worker: string;
    intervalMs?: number;
    batch?: number;
    leaseSeconds?: number;
    log?: (line: string) => void;
  },
): JobRunner {
  const interval = options.intervalMs ?? 1000;
  const log = options.log ?? console.error;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let again = false;

  async function runOnce(): Promise<number> {
    const jobs = await claimDueJobs(
      db,
      options.worker,
      options.batch ?? 10,
      options.leaseSeconds ?? 60,
    );
    await Promise.all(jobs.map(async (job) => {
      const handler = handlers[job.kind];
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        if (await handler(job.payload)) await completeJob(db, job.id);
        else {
          await retryJob(
            db,
            job.id,
            "uncertain outcome",
            new Date(Date.now() + backoffSeconds(job.attempts) * 1000),
          );
        }
      } catch (error) {
        log(
          `job ${job.id} (${job.kind}) failed: ${error instanceof Error ? error.message : error}`,
        );
        await retryJob(
          db,
          job.id,
          String(error),
          new Date(Date.now() + backoffSeconds(job.attempts) * 1000),
        )
          .catch(() => {});
      }
    }));
    return jobs.length;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
  }

  async function tick() {
    if (running) {
      again = true;
      return;
    }
    running = runOnce().catch((error) => {
      log(`job runner: ${error instanceof Error ? error.message : error}`);
      return 0;
    });
    const ran = await running;
    running = undefined;
    // A full batch or a kick during the pass means more may be waiting.
    schedule(again || ran === (options.batch ?? 10) ? 0 : interval);
    again = false;
  }

  return {
    start() {
      stopped = false;
      (globalThis as { [KICK_KEY]?: () => void })[KICK_KEY] = () => schedule(0);
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    kick: () => schedule(0),
    runOnce,
  };
}
