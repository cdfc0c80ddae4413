// `npm run bench -- order-placement [clients,...] [seconds] [before-ref]`: reseller order
// placement over HTTP (`POST /api/reseller/place_order` with an Idempotency-Key), PostgreSQL only
// (BENCH_DATABASE_URL, default the local server's `test` database), at 16 and 64 clients by
// default, on one hot balance (every client signed in as the same reseller) and spread (client i
// as reseller i modulo 50). The job runner sends each order to the EliteDias simulator, which
// answers at once. With `before-ref`, the app at that git revision runs each row too, twice, in
// the order before, after, after, before (see `apps`). Two ceilings, measured right after each
// row's app runs on the same database with the app and its worker stopped, with the same clients
// and sessions: pgbench replaying the statements this checkout sends for one order, from the
// statement log of an order lived there (bench/order-life.ts), prepared: its request's (session
// lookup and placement), and its whole life's (those, then the supplier-create and status passes
// of the job runner). Jobs run in a `cli worker` process and the simulated suppliers in a third
// (bench/supplier-simulators.ts), so the app's CPU is its HTTP work's and the worker's its
// fulfilment's. Before each measured load, BENCH_WARMUP_SECONDS (default 10) of the same orders are
// placed and fulfilled and the database is vacuumed and analyzed (see warmupSeconds).
import { buildApp, buildIsStale } from "../cli/build.ts";
import { pubgOrder } from "../tests/helpers/orders.ts";
import { withHandle } from "../tests/helpers/backends.ts";
import { sql } from "kysely";
import { captureOrderLife, numberSessions, replayScript } from "./order-life.ts";
import {
  type BenchApp,
  checkoutRevision,
  cpuMs,
  type LoadResult,
  percentile,
  postgresCpuMs,
  runClosedLoop,
  startBenchApp,
} from "./harness.ts";
import { appendResults } from "./results.ts";
import type { LeanClient } from "./lean-client.ts";

const clientCounts = (Deno.args[0] ?? "16,64").split(",").map(Number);
const seconds = Number(Deno.args[1] ?? 10);
const beforeRef = Deno.args[2];
const SPREAD = 50;

/**
 * Seconds of the same orders placed and fulfilled, unmeasured, before each measured load, then
 * VACUUM ANALYZE: the tables hold a running shop's history and the planner's statistics know it,
 * as autovacuum's would within a minute or two of it. Without it each app plans its first
 * statements against empty tables and PostgreSQL keeps those plans for the whole run, so the
 * bench would measure whole-table scans that a running shop, whose statements are planned against
 * tables with history, never makes.
 */
const warmupSeconds = Number(Deno.env.get("BENCH_WARMUP_SECONDS") ?? 10);

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** PostgreSQL's CPU time per order (per transaction for pgbench), in ms. */
  postgresCpu: number;
}

async function runPgbench(url: URL, clients: number, script: string): Promise<Figures> {
  const file = await Deno.makeTempFile({ suffix: ".sql" });
  await Deno.writeTextFile(file, script);
  const log = await Deno.makeTempDir();
  const postgresBefore = await postgresCpuMs();
  const out = await new Deno.Command("pgbench", {
    args: [
      "-n",
      "-M",
      "prepared",
      "-c",
      String(clients),
      "-j",
      "2",
      "-T",
      String(seconds),
      "-l",
      "--log-prefix",
      `${log}/tx`,
      "-f",
      file,
      "-h",
      url.hostname,
      "-p",
      url.port || "5432",
      "-U",
      url.username || "postgres",
      url.pathname.slice(1),
    ],
  }).output();
  const postgresUsed = await postgresCpuMs() - postgresBefore;
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`pgbench failed: ${new TextDecoder().decode(out.stderr)}`);
  // Per-transaction log lines: client, transaction, latency in µs, ...
  const latencies: number[] = [];
  for await (const entry of Deno.readDir(log)) {
    for (const line of (await Deno.readTextFile(`${log}/${entry.name}`)).split("\n")) {
      const us = Number(line.split(" ")[2]);
      if (line && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  await Deno.remove(log, { recursive: true });
  await Deno.remove(file);
  latencies.sort((x, y) => x - y);
  return {
    perSecond: Number(text.match(/tps = ([\d.]+)/)?.[1] ?? NaN),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: Number(text.match(/number of failed transactions: (\d+)/)?.[1] ?? 0),
    postgresCpu: postgresUsed / latencies.length,
  };
}

/** How long the runner may take to finish the jobs of a run's orders before the bench gives up. */
const DRAIN_LIMIT_MS = 120_000;

/** The order jobs left when the load stopped, and how long the worker took to finish them. */
interface Backlog {
  /** Order jobs due (run_at passed) and not done at the load's end. */
  dueAtEnd: number;
  /** Order jobs not done at the load's end, due or waiting for their time (the status checks). */
  openAtEnd: number;
  /** From the load's end until no due order job was left; undefined past the limit. */
  dueDrainedMs?: number;
  /** From the load's end until every order job was done; undefined past the limit. */
  allDoneMs?: number;
  /**
   * From the load's end until every order was sent to its supplier (no supplier-create job left):
   * whether the worker kept up with the intake, apart from the status checks' scheduled wait.
   */
  sentMs?: number;
  /** The latest a status check due after the load's end ran after its time (done_at − run_at). */
  statusLateMs?: number;
}

/**
 * Counts the order jobs (sending to the supplier, checking it) left at the load's end, then waits
 * until none is due and until none is left: the work the run's orders cost is then all done and
 * counted. A supplier-create job queues its status check FIRST_CHECK_SECONDS (3 s) ahead, so
 * "every job done" includes that wait by design; "due drained" is the worker's own lag.
 */
async function drainOrderJobs(app: BenchApp): Promise<Backlog> {
  const started = performance.now();
  return await withHandle(app.tdb, async (db) => {
    const count = async () => {
      const { rows } = await sql<{ due: number; open: number; creates: number; now: Date }>`
        SELECT count(*) FILTER (WHERE run_at <= now())::int AS due, count(*)::int AS open,
          count(*) FILTER (WHERE kind = 'order.supplier_create')::int AS creates, now()
        FROM jobs WHERE done_at IS NULL AND failed_at IS NULL AND kind LIKE 'order.%'`
        .execute(db);
      return rows[0];
    };
    const atEnd = await count();
    const backlog: Backlog = { dueAtEnd: atEnd.due, openAtEnd: atEnd.open };
    let now = atEnd;
    while (performance.now() - started < DRAIN_LIMIT_MS) {
      if (now.due === 0) backlog.dueDrainedMs ??= performance.now() - started;
      if (now.creates === 0) backlog.sentMs ??= performance.now() - started;
      if (now.open === 0) {
        backlog.allDoneMs = performance.now() - started;
        break;
      }
      await new Promise((ok) => setTimeout(ok, 50));
      now = await count();
    }
    const { rows: [late] } = await sql<{ ms: number | null }>`
      SELECT (max(extract(epoch FROM done_at - run_at)) * 1000)::float8 AS ms FROM jobs
      WHERE kind = 'order.supplier_status' AND run_at > ${atEnd.now}`.execute(db);
    backlog.statusLateMs = late.ms ?? undefined;
    return backlog;
  });
}

interface AppRun {
  label: string;
  run: LoadResult;
  /** From the load's start until every order job was done: the HTTP process's, the worker's. */
  appCpuMs: number;
  workerCpuMs: number;
  postgresCpuMs: number;
  backlog: Backlog;
}

const rows: string[] = [];
/** With a revision to compare, each row's mean orders/s per revision, as sentences. */
const means: string[] = [];
const ms = (v: number) => `${v.toFixed(1)} ms`;
const cpu = (v: number | undefined) => v === undefined ? "" : `${v.toFixed(2)} ms`;
function report(
  balance: string,
  clients: number,
  target: string,
  figures: Figures,
  ceilings: { placement: Figures; life: Figures },
  app?: { cpu: number; workerCpu: number; loadCpu: number; backlog: Backlog },
) {
  const seconds = (v: number | undefined) =>
    v === undefined ? `not within ${DRAIN_LIMIT_MS / 1000} s` : `${(v / 1000).toFixed(1)} s`;
  const backlog = app
    ? `${app.backlog.dueAtEnd} due, ${app.backlog.openAtEnd} open | ${
      seconds(app.backlog.dueDrainedMs)
    } | ${seconds(app.backlog.allDoneMs)} | ${seconds(app.backlog.sentMs)} | ${
      app.backlog.statusLateMs === undefined ? "" : seconds(app.backlog.statusLateMs)
    }`
    : " |  |  |  | ";
  const total = app ? cpu(app.cpu + app.workerCpu + figures.postgresCpu) : "";
  const row = `| ${balance} | ${clients} | ${target} | ${figures.perSecond.toFixed(0)} | ${
    ms(figures.p50)
  } | ${ms(figures.p99)} | ${figures.failures} | ${backlog} | ${cpu(app?.cpu)} | ${
    cpu(app?.workerCpu)
  } | ${cpu(figures.postgresCpu)} | ${total} | ${cpu(app?.loadCpu)} | ${
    (figures.perSecond / ceilings.placement.perSecond).toFixed(2)
  } | ${(figures.perSecond / ceilings.life.perSecond).toFixed(2)} |`;
  rows.push(row);
  console.log(row);
}

function appFigures({ run, postgresCpuMs }: AppRun): Figures {
  const n = run.latencies.length;
  return {
    perSecond: n / seconds,
    p50: percentile(run.latencies, 50),
    p99: percentile(run.latencies, 99),
    failures: run.failures,
    postgresCpu: postgresCpuMs / n,
  };
}

if (buildIsStale()) await buildApp();
const before = beforeRef ? await checkoutRevision(beforeRef) : undefined;
/**
 * With a revision to compare, each row runs the two apps in the order before, after, after,
 * before: whichever app runs later in a row is measured slower (between two copies of one
 * revision the second ran 10 to 17 % fewer orders per second), and this order gives both the
 * same positions on average. Each run is its own line, its position in the label; the ceilings
 * are measured once, after this checkout's first run.
 */
const apps = before
  ? [
    { label: `app at ${beforeRef} (before), 1st`, cwd: before.dir },
    { label: "app (after), 2nd", cwd: undefined },
    { label: "app (after), 3rd", cwd: undefined },
    { label: `app at ${beforeRef} (before), 4th`, cwd: before.dir },
  ]
  : [{ label: "app", cwd: undefined }];
console.log(`${seconds} s per row; PostgreSQL; load generator, app and database on this machine.`);
const header = [
  "| balance | clients | target | orders/s | p50 | p99 | failures | order jobs left at the load's end | due ones done after | all done after | every order sent after | a status check due after the load, latest after its time | app (HTTP) CPU per order | worker CPU per order | PostgreSQL CPU per order | app + worker + PostgreSQL | load generator CPU per order | share of pgbench, placement | share of pgbench, whole life |",
  "| ------- | ------- | ------ | -------- | --- | --- | -------- | --------------------------------- | ------------------- | -------------- | --- | --- | ------------------------ | -------------------- | ------------------------ | ------------------------- | ---------------------------- | --------------------------- | ---------------------------- |",
];
console.log(header.join("\n"));
for (const clients of clientCounts) {
  for (
    const [balance, resellers] of [["hot (1 reseller)", 1], [`spread (${SPREAD})`, SPREAD]] as const
  ) {
    const measured: AppRun[] = [];
    let ceilings: { placement: Figures; life: Figures } | undefined;
    for (const { label, cwd } of apps) {
      const app = await startBenchApp(clients, {
        balanceCents: 1_000_000_000,
        resellers: Math.min(resellers, clients),
        cwd,
        worker: true,
      });
      try {
        const { body } = await pubgOrder(app.sessions[0]);
        const place = async (c: LeanClient) =>
          (await c.post("/api/reseller/place_order", body, {
            "idempotency-key": crypto.randomUUID(),
          })).status === 201;
        if (warmupSeconds > 0) {
          await runClosedLoop(app, warmupSeconds, place);
          await drainOrderJobs(app);
          await withHandle(app.tdb, (db) => sql`VACUUM ANALYZE`.execute(db));
          // Connections idle through the drain may be past the server's keep-alive: fresh ones.
          for (const client of app.lean) client.close();
        }
        const appBefore = await cpuMs(app.server.pid);
        const workerBefore = await cpuMs(app.worker!.pid);
        const postgresBefore = await postgresCpuMs();
        const run = await runClosedLoop(app, seconds, place);
        const backlog = await drainOrderJobs(app);
        measured.push({
          label,
          run,
          backlog,
          appCpuMs: await cpuMs(app.server.pid) - appBefore,
          workerCpuMs: await cpuMs(app.worker!.pid) - workerBefore,
          postgresCpuMs: await postgresCpuMs() - postgresBefore,
        });
        if (cwd || ceilings) continue;
        // The ceilings, on this checkout's database: the app and its worker stopped (the replay's
        // jobs are no one else's), its sessions kept.
        await app.server.stop();
        await app.worker!.stop();
        await numberSessions(app.tdb);
        const life = await captureOrderLife(app.tdb, "bench0@bench.example");
        const url = new URL(app.tdb.env.DATABASE_URL);
        const request = [...life.session, ...life.placement];
        const placement = await runPgbench(url, clients, replayScript(life, request, clients));
        // The placements' supplier jobs, which nothing runs here, are not the next replay's to
        // claim.
        await withHandle(
          app.tdb,
          (db) => sql`UPDATE jobs SET done_at = now() WHERE done_at IS NULL`.execute(db),
        );
        ceilings = {
          placement,
          life: await runPgbench(
            url,
            clients,
            replayScript(life, [...request, ...life.create, ...life.check], clients),
          ),
        };
      } finally {
        await app.stop();
      }
    }
    if (before) {
      const mean = (after: boolean) => {
        const runs = measured.filter((m) => m.label.startsWith("app (after)") === after);
        return runs.reduce((sum, m) => sum + appFigures(m).perSecond, 0) / runs.length;
      };
      const [b, a] = [mean(false), mean(true)];
      const line = `${balance}, ${clients} clients: orders/s, mean of two runs each: before ${
        b.toFixed(0)
      }, after ${a.toFixed(0)} (${a >= b ? "+" : ""}${(100 * (a - b) / b).toFixed(1)} %).`;
      means.push(line);
      console.log(line);
    }
    for (const measure of measured) {
      const n = measure.run.latencies.length;
      report(balance, clients, measure.label, appFigures(measure), ceilings!, {
        cpu: measure.appCpuMs / n,
        workerCpu: measure.workerCpuMs / n,
        loadCpu: measure.run.loadCpuMs / n,
        backlog: measure.backlog,
      });
    }
    report(
      balance,
      clients,
      "ceiling: pgbench, the request's statements",
      ceilings!.placement,
      ceilings!,
    );
    report(
      balance,
      clients,
      "ceiling: pgbench, the whole life's statements",
      ceilings!.life,
      ceilings!,
    );
  }
}
await before?.remove();

await appendResults(
  "Order placement",
  `npm run bench -- order-placement ${clientCounts.join(",")} ${seconds}${
    beforeRef ? ` ${beforeRef}` : ""
  }`,
  [
    ...(before
      ? [
        `Each row runs the app at ${beforeRef} and this checkout in the order before, after,`,
        "after, before (the later runs of a row are measured slower); the means below the table",
        "compare the two runs of each.",
        "",
      ]
      : []),
    `Reseller orders over HTTP (\`POST /api/reseller/place_order\`, Idempotency-Key), ${seconds} s`,
    "per row, closed loop; one hot balance (every client signed in as one reseller) or spread",
    `(client i as reseller i modulo ${SPREAD}). Before each row's measured load, ${warmupSeconds} s`,
    "of the same orders, placed and fulfilled, then VACUUM ANALYZE: the tables hold history and",
    "the planner's statistics know it, as in a running shop. The app serves HTTP only",
    "(RUN_JOBS=false); one",
    "`cli worker` process runs the jobs (JOB_CONCURRENCY from the bench's environment, else the",
    "worker's default), sending each order to the EliteDias simulator, which answers at once, in a",
    "third process",
    "(bench/supplier-simulators.ts). Ceilings, on the same database right after, app and worker",
    "stopped, same clients and sessions: pgbench (-M prepared) replaying the statement log of one",
    "order lived there (bench/order-life.ts), each transaction with an order of its own (plus one",
    "lookup of its client's session): the request's statements (session lookup, placement), and",
    "the whole life's (those, the supplier-create pass: claim, order read with its attempt,",
    "acceptance with the move to pending and the status check, done; the status pass: claim,",
    "order read, move to successful, done). When the load stops the bench counts the order",
    "jobs left (due, and open: a status check waits 3 s after the supplier accepts) and waits until",
    "the due ones and then all are done. Whether fulfilment kept up, apart from that scheduled",
    "wait: when the last order was sent to its supplier, and how late the status checks that came",
    "due after the load ran (done_at − run_at, the latest). The app's, the worker's and",
    "PostgreSQL's CPU per order run",
    "from the load's start to then, so they include each order's fulfilment, which pgbench does",
    "not do. PostgreSQL's is every postgres process's user + system time (anyone else's work on",
    "the server included). The load generator (bench/lean-client.ts: one kept-alive connection per",
    "client), the app, the worker, the simulators and PostgreSQL share the machine's cores.",
    "",
    ...header,
    ...rows,
    ...(means.length ? ["", ...means] : []),
  ],
);
