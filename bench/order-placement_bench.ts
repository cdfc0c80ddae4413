// `npm run bench -- order-placement [clients,...] [seconds] [before-ref]`: reseller order
// placement over HTTP (`POST /api/reseller/place_order` with an Idempotency-Key), PostgreSQL only
// (BENCH_DATABASE_URL, default the local server's `test` database), at 16 and 64 clients by
// default, on one hot balance (every client signed in as the same reseller) and spread (client i
// as reseller i modulo 50). The job runner sends each order to the EliteDias simulator, which
// answers at once. With `before-ref`, the app at that git revision runs each row too, right
// before this checkout's (before and after in one run). The ceiling, measured right after each
// row's app runs on the same database with the app stopped: pgbench running the statements the app
// sends to place one order (session and user, game, then the placement statement: debit, order,
// history row, job, key and kept answer), prepared, with the same clients and sessions. Jobs run
// in a `cli worker` process and the simulated suppliers in a third (bench/supplier-simulators.ts),
// so the app's CPU is its HTTP work's and the worker's its fulfilment's.
import { buildApp, buildIsStale } from "../cli/build.ts";
import { pubgOrder } from "../tests/helpers/orders.ts";
import { withHandle } from "../tests/helpers/backends.ts";
import { sql } from "kysely";
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

const clientCounts = (Deno.args[0] ?? "16,64").split(",").map(Number);
const seconds = Number(Deno.args[1] ?? 10);
const beforeRef = Deno.args[2];
const SPREAD = 50;

/**
 * The statements the app sends to place one order (from the repositories' SQL). pgbench takes any
 * `:name` for a variable, even inside a string, so the time format's colons are chr(58) here.
 */
function pgbenchScript(sessions: number, order: { amount: number; cost: string }) {
  const a = order.amount;
  return `\\set k random(1, 9000000000000000000)
\\set o random(1, 9000000000000000000)
SELECT id_hash AS h, user_id AS rid FROM bench_clients WHERE n = :client_id % ${sessions} \\gset
select "sessions".*, (select to_json(obj) from (select "id", "name", "given_name", "family_name", "email", "rank", "remarks", "totp_confirmed", "created_by", "created_at" from "admins" where "admins"."id" = "sessions"."user_id" and "sessions"."user_type" = 'admin') as obj) as "admin", (select to_json(obj) from (select "id", "name", "phone", "email", "balance_cents", "markup", "remarks", "disable_discounts", "rank", "two_fa_enabled", "created_by", "created_at" from "resellers" where "resellers"."id" = "sessions"."user_id" and "sessions"."user_type" = 'reseller' and "resellers"."deleted_at" is null) as obj) as "reseller" from "sessions" where "id_hash" = :h and "expires_at" > now();
select id AS game_id from "games" where "supplier" = 'elephant' and "supplier_name" = 'pubgm' \\gset
select * from "games" where "supplier" = 'elephant' and "supplier_name" = 'pubgm';
WITH debit AS (UPDATE resellers SET balance_cents = balance_cents - ${a} WHERE id = :rid AND deleted_at IS NULL AND balance_cents >= ${a} AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE scope = 'reseller:' || :rid::text AND key = :k::text) RETURNING balance_cents + ${a}::bigint AS old_cents, balance_cents AS new_cents, now() AS at), history AS (INSERT INTO balance_history (reseller_id, type, old_cents, new_cents, order_id, order_snapshot, actor) SELECT :rid::uuid, 'order_placed', old_cents, new_cents, 'P' || :o::text, jsonb_set('{"id": "P", "date": "", "item": "60 UC", "amount": 1}'::text::jsonb, '{date}', to_jsonb(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"'))), 'pgbench'::text FROM debit), job AS (INSERT INTO jobs (kind, payload, run_at) SELECT 'pgbench.noop'::text, '{}'::text::jsonb, at FROM debit), claim AS (INSERT INTO idempotency_keys (scope, key, fingerprint, response_status, response_body) SELECT 'reseller:' || :rid::text, :k::text, 'pgbench'::text, 201::int, jsonb_set(jsonb_set(jsonb_set('{"order": {"date": "", "reseller": {"oldBalance": 0, "newBalance": 0}}}'::text::jsonb, '{order,date}', to_jsonb(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"'))), '{order,reseller,oldBalance}', to_jsonb((old_cents / 100.0)::float8)), '{order,reseller,newBalance}', to_jsonb((new_cents / 100.0)::float8)) FROM debit), placed AS (INSERT INTO orders ("id", "buyer_type", "status", "reseller_id", "reseller_name", "game_id", "game", "package", "package_ed_name", "item", "denom", "user_id", "server_id", "user_name", "amount_cents", "cost", "supplier", old_balance_cents, new_balance_cents, created_at, updated_at) SELECT 'P' || :o::text, r."buyer_type", r."status", :rid::uuid, r."reseller_name", :game_id::uuid, r."game", r."package", r."package_ed_name", r."item", r."denom", r."user_id", r."server_id", r."user_name", r."amount_cents", r."cost", r."supplier", old_cents, new_cents, at, at FROM debit, jsonb_populate_record(NULL::orders, '{"buyer_type": "reseller", "status": "new", "reseller_name": "Bench", "game": "PUBG Mobile", "package": null, "package_ed_name": "pubgm", "item": "60 UC", "denom": "60 UC", "user_id": "5551234", "server_id": "", "user_name": "Player", "amount_cents": ${a}, "cost": "${order.cost}", "supplier": "elephant"}'::text::jsonb) AS r) SELECT EXISTS (SELECT 1 FROM idempotency_keys WHERE scope = 'reseller:' || :rid::text AND key = :k::text) AS replay, debit.old_cents, debit.new_cents, debit.at FROM (SELECT 1) AS one LEFT JOIN debit ON true;
`;
}

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
      const { rows } = await sql<{ due: number; open: number }>`
        SELECT count(*) FILTER (WHERE run_at <= now())::int AS due, count(*)::int AS open
        FROM jobs WHERE done_at IS NULL AND failed_at IS NULL AND kind LIKE 'order.%'`
        .execute(db);
      return rows[0];
    };
    const atEnd = await count();
    const backlog: Backlog = { dueAtEnd: atEnd.due, openAtEnd: atEnd.open };
    let now = atEnd;
    while (performance.now() - started < DRAIN_LIMIT_MS) {
      if (now.due === 0) backlog.dueDrainedMs ??= performance.now() - started;
      if (now.open === 0) {
        backlog.allDoneMs = performance.now() - started;
        break;
      }
      await new Promise((ok) => setTimeout(ok, 50));
      now = await count();
    }
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
const ms = (v: number) => `${v.toFixed(1)} ms`;
const cpu = (v: number | undefined) => v === undefined ? "" : `${v.toFixed(2)} ms`;
function report(
  balance: string,
  clients: number,
  target: string,
  figures: Figures,
  ceiling: number,
  app?: { cpu: number; workerCpu: number; loadCpu: number; backlog: Backlog },
) {
  const seconds = (v: number | undefined) =>
    v === undefined ? `not within ${DRAIN_LIMIT_MS / 1000} s` : `${(v / 1000).toFixed(1)} s`;
  const backlog = app
    ? `${app.backlog.dueAtEnd} due, ${app.backlog.openAtEnd} open | ${
      seconds(app.backlog.dueDrainedMs)
    } | ${seconds(app.backlog.allDoneMs)}`
    : " |  | ";
  const total = app ? cpu(app.cpu + app.workerCpu + figures.postgresCpu) : "";
  const row = `| ${balance} | ${clients} | ${target} | ${figures.perSecond.toFixed(0)} | ${
    ms(figures.p50)
  } | ${ms(figures.p99)} | ${figures.failures} | ${backlog} | ${cpu(app?.cpu)} | ${
    cpu(app?.workerCpu)
  } | ${cpu(figures.postgresCpu)} | ${total} | ${cpu(app?.loadCpu)} | ${
    (figures.perSecond / ceiling).toFixed(2)
  } |`;
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
const apps = [
  ...(before ? [{ label: `app at ${beforeRef} (before)`, cwd: before.dir }] : []),
  { label: before ? "app (after)" : "app", cwd: undefined },
];
console.log(`${seconds} s per row; PostgreSQL; load generator, app and database on this machine.`);
const header = [
  "| balance | clients | target | orders/s | p50 | p99 | failures | order jobs left at the load's end | due ones done after | all done after | app (HTTP) CPU per order | worker CPU per order | PostgreSQL CPU per order | app + worker + PostgreSQL | load generator CPU per order | share of pgbench |",
  "| ------- | ------- | ------ | -------- | --- | --- | -------- | --------------------------------- | ------------------- | -------------- | ------------------------ | -------------------- | ------------------------ | ------------------------- | ---------------------------- | ---------------- |",
];
console.log(header.join("\n"));
for (const clients of clientCounts) {
  for (
    const [balance, resellers] of [["hot (1 reseller)", 1], [`spread (${SPREAD})`, SPREAD]] as const
  ) {
    const measured: AppRun[] = [];
    let ceiling: Figures | undefined;
    for (const { label, cwd } of apps) {
      const app = await startBenchApp(clients, {
        balanceCents: 1_000_000_000,
        resellers: Math.min(resellers, clients),
        cwd,
        worker: true,
      });
      try {
        const { body } = await pubgOrder(app.sessions[0]);
        const appBefore = await cpuMs(app.server.pid);
        const workerBefore = await cpuMs(app.worker!.pid);
        const postgresBefore = await postgresCpuMs();
        const run = await runClosedLoop(
          app,
          seconds,
          async (c) =>
            (await c.post("/api/reseller/place_order", body, {
              "idempotency-key": crypto.randomUUID(),
            })).status === 201,
        );
        const backlog = await drainOrderJobs(app);
        measured.push({
          label,
          run,
          backlog,
          appCpuMs: await cpuMs(app.server.pid) - appBefore,
          workerCpuMs: await cpuMs(app.worker!.pid) - workerBefore,
          postgresCpuMs: await postgresCpuMs() - postgresBefore,
        });
        if (cwd) continue;
        // The ceiling, on this checkout's database: the app stopped, its sessions kept.
        await app.server.stop();
        const order = await withHandle(app.tdb, async (db) => {
          await sql`CREATE TABLE bench_clients AS SELECT (row_number() OVER ()) - 1 AS n,
            id_hash, user_id FROM sessions WHERE user_type = 'reseller'`.execute(db);
          return await db.selectFrom("orders").select(["amount_cents", "cost"]).limit(1)
            .executeTakeFirstOrThrow();
        });
        ceiling = await runPgbench(
          new URL(app.tdb.env.DATABASE_URL),
          clients,
          pgbenchScript(clients, { amount: Number(order.amount_cents), cost: String(order.cost) }),
        );
      } finally {
        await app.stop();
      }
    }
    for (const measure of measured) {
      const n = measure.run.latencies.length;
      report(balance, clients, measure.label, appFigures(measure), ceiling!.perSecond, {
        cpu: measure.appCpuMs / n,
        workerCpu: measure.workerCpuMs / n,
        loadCpu: measure.run.loadCpuMs / n,
        backlog: measure.backlog,
      });
    }
    report(balance, clients, "ceiling: pgbench, same statements", ceiling!, ceiling!.perSecond);
  }
}
await before?.remove();

await appendResults(
  "Order placement",
  `npm run bench -- order-placement ${clientCounts.join(",")} ${seconds}${
    beforeRef ? ` ${beforeRef}` : ""
  }`,
  [
    `Reseller orders over HTTP (\`POST /api/reseller/place_order\`, Idempotency-Key), ${seconds} s`,
    "per row, closed loop; one hot balance (every client signed in as one reseller) or spread",
    `(client i as reseller i modulo ${SPREAD}). The app serves HTTP only (RUN_JOBS=false); one`,
    "`cli worker` process runs the jobs (JOB_CONCURRENCY from the bench's environment, default",
    "10), sending each order to the EliteDias simulator, which answers at once, in a third process",
    "(bench/supplier-simulators.ts). Ceiling: pgbench (-M prepared) running the statements the app",
    "sends to place one order on the same database right after, app stopped, same clients and",
    "sessions (plus one lookup of its own session). When the load stops the bench counts the order",
    "jobs left (due, and open: a status check waits 3 s after the supplier accepts) and waits until",
    "the due ones and then all are done; the app's, the worker's and PostgreSQL's CPU per order run",
    "from the load's start to then, so they include each order's fulfilment, which pgbench does",
    "not do. PostgreSQL's is every postgres process's user + system time (anyone else's work on",
    "the server included). The load generator (bench/lean-client.ts: one kept-alive connection per",
    "client), the app, the worker, the simulators and PostgreSQL share the machine's cores.",
    "",
    ...header,
    ...rows,
  ],
);
