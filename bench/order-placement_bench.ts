// `npm run bench -- order-placement [clients,...] [seconds] [before-ref]`: reseller order
// placement over HTTP (`POST /api/reseller/place_order` with an Idempotency-Key), PostgreSQL only
// (BENCH_DATABASE_URL, default the local server's `test` database), at 16 and 64 clients by
// default, on one hot balance (every client signed in as the same reseller) and spread (client i
// as reseller i modulo 50). The job runner sends each order to the EliteDias simulator, which
// answers at once. With `before-ref`, the app at that git revision runs each row too, right
// before this checkout's (before and after in one run). The ceiling, measured right after each
// row's app runs on the same database with the app stopped: pgbench running the statements the app
// sends for one order (session and user, reseller, game, then BEGIN, claim-and-debit, order +
// history + job + stored answer, COMMIT), prepared, with the same clients and sessions.
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

/** The statements of one order, as the app sends them (from the repositories' SQL). */
function pgbenchScript(sessions: number, order: { amount: number; cost: string }) {
  const a = order.amount;
  return `\\set k random(1, 9000000000000000000)
\\set o random(1, 9000000000000000000)
SELECT id_hash AS h, user_id AS rid FROM bench_clients WHERE n = :client_id % ${sessions} \\gset
select "sessions".*, (select to_json(obj) from (select "id", "name", "given_name", "family_name", "email", "rank", "remarks", "totp_confirmed", "created_by", "created_at" from "admins" where "admins"."id" = "sessions"."user_id" and "sessions"."user_type" = 'admin') as obj) as "admin", (select to_json(obj) from (select "id", "name", "phone", "email", "balance_cents", "markup", "remarks", "disable_discounts", "rank", "two_fa_enabled", "created_by", "created_at" from "resellers" where "resellers"."id" = "sessions"."user_id" and "sessions"."user_type" = 'reseller' and "resellers"."deleted_at" is null) as obj) as "reseller" from "sessions" where "id_hash" = :h and "expires_at" > now();
select "id", "name", "phone", "email", "balance_cents", "markup", "remarks", "disable_discounts", "rank", "two_fa_enabled", "created_by", "created_at" from "resellers" where "id" = :rid and "deleted_at" is null;
select id AS game_id from "games" where "supplier" = 'elephant' and "supplier_name" = 'pubgm' \\gset
select * from "games" where "supplier" = 'elephant' and "supplier_name" = 'pubgm';
begin;
WITH claim AS (INSERT INTO idempotency_keys (scope, key, fingerprint) VALUES ('reseller:' || :rid, :k, 'pgbench') ON CONFLICT (scope, key) DO NOTHING RETURNING 1), debit AS (UPDATE resellers SET balance_cents = balance_cents - ${a} WHERE id = :rid AND deleted_at IS NULL AND balance_cents >= ${a} AND EXISTS (SELECT 1 FROM claim) RETURNING balance_cents) SELECT EXISTS (SELECT 1 FROM claim) AS claimed, (SELECT balance_cents FROM debit) AS new_cents, now() AS at \\gset
with "history" as (insert into "balance_history" ("reseller_id", "type", "old_cents", "new_cents", "order_id", "order_snapshot", "actor") values (:rid, 'order_placed', :new_cents + ${a}, :new_cents, 'P' || :o, '{"item": "60 UC"}', 'pgbench') returning "id"), "job" as (insert into "jobs" ("kind", "payload", "run_at") values ('pgbench.noop', '{}', now()) returning "id"), "response" as (update "idempotency_keys" set "response_status" = 201, "response_body" = '{"order": {}}' where "scope" = 'reseller:' || :rid and "key" = :k returning "key") insert into "orders" ("id", "buyer_type", "status", "reseller_id", "reseller_name", "old_balance_cents", "new_balance_cents", "consumer_id", "consumer_name", "consumer_email", "consumer_phone", "game_id", "game", "package", "package_ed_name", "item", "denom", "user_id", "server_id", "user_name", "amount_cents", "cost", "supplier", "supplier_order_id", "payment_provider", "payment_reference", "last_error", "created_at", "updated_at") values ('P' || :o, 'reseller', 'new', :rid, 'Bench', :new_cents + ${a}, :new_cents, NULL, NULL, NULL, NULL, :game_id, 'PUBG Mobile', NULL, 'pubgm', '60 UC', '60 UC', '5551234', '', 'Player', ${a}, ${order.cost}, 'elephant', NULL, NULL, NULL, NULL, now(), now());
commit;
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

/**
 * Waits until no order job (sending to the supplier, checking it) is left to run: the work the
 * run's orders cost is then all done and counted. Returns the wait in ms, or undefined when the
 * limit passed first.
 */
async function drainOrderJobs(app: BenchApp): Promise<number | undefined> {
  const started = performance.now();
  return await withHandle(app.tdb, async (db) => {
    while (performance.now() - started < DRAIN_LIMIT_MS) {
      const { open } = await db.selectFrom("jobs")
        .select((eb) => eb.fn.countAll<string>().as("open"))
        .where("done_at", "is", null).where("kind", "like", "order.%")
        .executeTakeFirstOrThrow();
      if (Number(open) === 0) return performance.now() - started;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    return undefined;
  });
}

interface AppRun {
  label: string;
  run: LoadResult;
  /** From the load's start until every order job was done. */
  appCpuMs: number;
  postgresCpuMs: number;
  drainMs?: number;
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
  app?: { cpu: number; loadCpu: number; drainMs?: number },
) {
  const drained = !app
    ? ""
    : app.drainMs === undefined
    ? `not within ${DRAIN_LIMIT_MS / 1000} s`
    : `${(app.drainMs / 1000).toFixed(1)} s`;
  const row = `| ${balance} | ${clients} | ${target} | ${figures.perSecond.toFixed(0)} | ${
    ms(figures.p50)
  } | ${ms(figures.p99)} | ${figures.failures} | ${drained} | ${cpu(app?.cpu)} | ${
    cpu(figures.postgresCpu)
  } | ${cpu(app?.loadCpu)} | ${(figures.perSecond / ceiling).toFixed(2)} |`;
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
  "| balance | clients | target | orders/s | p50 | p99 | failures | jobs done after the load | app CPU per order | PostgreSQL CPU per order | load generator CPU per order | share of pgbench |",
  "| ------- | ------- | ------ | -------- | --- | --- | -------- | ------------------------ | ----------------- | ------------------------ | ---------------------------- | ---------------- |",
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
        env: { RUN_JOBS: "true" },
        cwd,
      });
      try {
        const { body } = await pubgOrder(app.sessions[0]);
        const appBefore = await cpuMs(app.server.pid);
        const postgresBefore = await postgresCpuMs();
        const run = await runClosedLoop(
          app,
          seconds,
          async (c) =>
            (await c.post("/api/reseller/place_order", body, {
              "idempotency-key": crypto.randomUUID(),
            })).status === 201,
        );
        const drainMs = await drainOrderJobs(app);
        measured.push({
          label,
          run,
          drainMs,
          appCpuMs: await cpuMs(app.server.pid) - appBefore,
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
        loadCpu: measure.run.loadCpuMs / n,
        drainMs: measure.drainMs,
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
    `(client i as reseller i modulo ${SPREAD}); the job runner sends each order to the EliteDias`,
    "simulator, which answers at once. Ceiling: pgbench (-M prepared) running the statements the",
    "app sends to place one order on the same database right after, app stopped, same clients",
    "and sessions (plus one lookup of its own session). After the load, the bench waits until the",
    "job runner has done every order job (\"jobs done after the load\"); the app's and PostgreSQL's",
    "CPU per order run from the load's start to then, so they include each order's fulfilment",
    "(sending it to the supplier, checking it, marking it delivered), which pgbench does not do.",
    "PostgreSQL's is every postgres process's user + system time. The load generator",
    "(bench/lean-client.ts: one kept-alive connection per client), the app, PostgreSQL and the",
    "supplier simulator share the machine's cores.",
    "",
    ...header,
    ...rows,
  ],
);
