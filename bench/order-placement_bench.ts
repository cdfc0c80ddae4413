// Reseller order placement over HTTP (quality bar: p99 < 200 ms at 50 concurrent clients), and
// pgbench running the same transaction (debit + order + history row + job) on the same database,
// side by side. PostgreSQL only: BENCH_DATABASE_URL (default the local server's `test` database).
//
//   node_modules/.bin/deno run -A bench/order-placement_bench.ts [clients=50] [seconds=20]
//
// The supplier is simulated and outside the measurement: the job runner picks orders up after
// commit, as in production.
import { pubgOrder } from "../tests/helpers/orders.ts";
import { percentile, runClosedLoop, startBenchApp } from "./harness.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 20);

// BENCH_RUN_JOBS=false measures an HTTP-only instance (supplier calls left to a worker box).
const app = await startBenchApp(clients, {
  balanceCents: 1_000_000_000,
  env: { RUN_JOBS: Deno.env.get("BENCH_RUN_JOBS") ?? "true" },
});
const { tdb, server, sessions } = app;

try {
  const { body } = await pubgOrder(sessions[0]);

  const { latencies, failures, cpuUsedMs: cpuUsed } = await runClosedLoop(
    app,
    seconds,
    async (c) =>
      (await c.post("/api/reseller/place_order", body, {
        "idempotency-key": crypto.randomUUID(),
      })).status === 201,
  );
  const appTps = latencies.length / seconds;
  console.log(
    `app: ${latencies.length} orders in ${seconds} s with ${clients} clients = ${
      appTps.toFixed(0)
    }/s, ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${
        percentile(latencies, 99).toFixed(1)
      } ms, ` +
      `max ${latencies.at(-1)!.toFixed(1)} ms, failures ${failures}`,
  );
  console.log(
    `app process CPU: ${(cpuUsed / latencies.length).toFixed(2)} ms per order ` +
      `(${(cpuUsed / 1000).toFixed(1)} s over ${seconds} s)`,
  );

  const script = await Deno.makeTempFile({ suffix: ".sql" });
  await Deno.writeTextFile(
    script,
    `\\set r random(0, ${clients - 1})
BEGIN;
UPDATE resellers SET balance_cents = balance_cents - 104 WHERE name = 'Bench ' || :r AND balance_cents >= 104 RETURNING id, balance_cents;
INSERT INTO orders (id, buyer_type, status, reseller_id, reseller_name, old_balance_cents, new_balance_cents, game, item, denom, user_id, amount_cents, cost, supplier)
  SELECT 'P' || md5(random()::text), 'reseller', 'new', id, name, balance_cents + 104, balance_cents, 'PUBG Mobile', '60 UC', '60 UC', '5551234', 104, 0.99, 'elephant' FROM resellers WHERE name = 'Bench ' || :r;
INSERT INTO balance_history (reseller_id, type, old_cents, new_cents, order_id, actor)
  SELECT id, 'order_placed', balance_cents + 104, balance_cents, NULL, 'pgbench' FROM resellers WHERE name = 'Bench ' || :r;
INSERT INTO jobs (kind, payload) VALUES ('pgbench.noop', '{}'::jsonb);
COMMIT;
`,
  );
  await server.stop();
  const url = new URL(tdb.env.DATABASE_URL);
  const out = await new Deno.Command("pgbench", {
    args: [
      "-n",
      "-c",
      String(clients),
      "-j",
      "2",
      "-T",
      String(seconds),
      "-f",
      script,
      "-h",
      url.hostname,
      "-p",
      url.port || "5432",
      "-U",
      url.username || "postgres",
      url.pathname.slice(1),
    ],
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const tps = Number(text.match(/tps = ([\d.]+)/)?.[1] ?? NaN);
  const lat = text.match(/latency average = ([\d.]+) ms/)?.[1];
  console.log(
    `pgbench, same transaction, same clients: ${tps.toFixed(0)}/s, latency average ${lat} ms`,
  );
  console.log(`app / pgbench throughput: ${(appTps / tps).toFixed(2)}`);
} finally {
  await app.stop();
}
