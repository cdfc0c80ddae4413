import type { Db } from "../db/client.ts";
import { claimDueJobs, completeJob, type JobRow, retryJob } from "../db/repositories/jobs.ts";

/** Runs one job; true when it is done, false when it should run again later. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<boolean>;

export interface JobRunner {
  start(): void;
  stop(): Promise<void>;
  /**
   * Looks for due jobs of `kinds` (every kind when none is given) now instead of at the next tick
   * (after an order commits).
   */
  kick(...kinds: string[]): void;
  /** One pass over due jobs of every kind; returns how many ran. */
  runOnce(): Promise<number>;
}

const KICK_KEY = Symbol.for("topup.jobs.kick");

type Kick = (...kinds: string[]) => void;

/**
 * Asks this process's job runner to look for jobs of `kinds` (every kind when none is given) now;
 * a no-op where none runs. Naming the kind just queued spares the other lanes a claim each.
 */
export function kickJobs(...kinds: string[]): void {
  (globalThis as { [KICK_KEY]?: Kick })[KICK_KEY]?.(...kinds);
}

/** Seconds before attempt n+1: 2, 4, 8 … capped at five minutes. */
export function backoffSeconds(attempts: number): number {
  return Math.min(2 ** attempts, 300);
}

/** What a runner does with one kind of job. */
interface Lane {
  kind: string;
  handler: JobHandler;
  /** The jobs of this kind running now. */
  running: Set<Promise<void>>;
  /** A claim is under way (`claim`, which starts the jobs it claims); `again` asks for another. */
  claiming: boolean;
  claim?: Promise<unknown>;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Polls the jobs table (every instance and `cli worker` run one; SKIP LOCKED keeps them from
 * taking the same job) and runs each job with its handler. Each kind is a lane of its own, with
 * up to `concurrency` jobs running: a lane claims as many as it has free slots and claims again
 * as soon as one ends, so a slow kind (a reseller's webhook receiver that never answers) fills
 * only its own slots and never holds up supplier orders or mail.
 */
export function createJobRunner(
  db: Db,
  handlers: Record<string, JobHandler>,
  options: {
    worker: string;
    intervalMs?: number;
    /** Jobs of one kind running at once in this process. */
    concurrency?: number;
    leaseSeconds?: number;
    log?: (line: string) => void;
  },
): JobRunner {
  const interval = options.intervalMs ?? 1000;
  const concurrency = options.concurrency ?? 10;
  const log = options.log ?? console.error;
  const lanes: Lane[] = Object.entries(handlers).map(([kind, handler]) => ({
    kind,
    handler,
    running: new Set(),
    claiming: false,
    again: false,
  }));
  let stopped = true;

  async function runJob(lane: Lane, job: JobRow): Promise<void> {
    try {
      if (await lane.handler(job.payload)) await completeJob(db, job.id);
      else {
        await retryJob(
          db,
          job.id,
          "uncertain outcome",
          new Date(Date.now() + backoffSeconds(job.attempts) * 1000),
        );
      }
    } catch (error) {
      log(`job ${job.id} (${job.kind}) failed: ${error instanceof Error ? error.message : error}`);
      await retryJob(
        db,
        job.id,
        String(error),
        new Date(Date.now() + backoffSeconds(job.attempts) * 1000),
      )
        .catch(() => {});
    }
  }

  /** Claims due jobs of the lane's kind into its free slots and starts them; returns them. */
  async function fill(lane: Lane): Promise<Promise<void>[]> {
    const free = concurrency - lane.running.size;
    if (free <= 0) return [];
    const jobs = await claimDueJobs(
      db,
      options.worker,
      free,
      options.leaseSeconds ?? 60,
      lane.kind,
    );
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

  const kick: Kick = (...kinds) => {
    for (const lane of lanes) {
      if (!kinds.length || kinds.includes(lane.kind)) schedule(lane, 0);
    }
  };

  return {
    start() {
      stopped = false;
      (globalThis as { [KICK_KEY]?: Kick })[KICK_KEY] = kick;
      kick();
    },
    async stop() {
      stopped = true;
      for (const lane of lanes) clearTimeout(lane.timer);
      // A claim under way starts the jobs it claims after this point: wait for claims and jobs
      // until none is left, so nothing touches the database once stop resolves.
      for (;;) {
        const pending = lanes.flatMap((
          lane,
        ) => [...(lane.claim ? [lane.claim] : []), ...lane.running]);
        if (!pending.length) return;
        await Promise.allSettled(pending);
      }
    },
    kick,
    async runOnce() {
      const started = (await Promise.all(lanes.map(fill))).flat();
      await Promise.all(started);
      return started.length;
    },
  };
}
