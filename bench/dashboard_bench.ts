// Admin dashboard benchmark: GET /api/dashboard over HTTP against PostgreSQL with N orders
// (default 1,000,000), seeded in one INSERT … SELECT FROM generate_series. Reports the p50, p95 and
// max latency of the dashboard call as the signed-in demo admin sees it.
//
//   node_modules/.bin/deno run -A bench/dashboard_bench.ts [orders] [calls]
//
// Needs `npm run build` first and PostgreSQL at BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); it creates its own database and drops it after.
//
// The orders: 90% successful (the rest error, pending or awaiting payment), 80% from 10 resellers
// and 20% from consumers, a quarter each mlbb, mlbb_special, mlbb_global and other games, one
// a minute back from now (so the set spans about 694 days and some orders predate 4 Apr 2025,
// which the dashboard never counts). After loading, the job runner's fold of the dashboard's change
// lines (one per successful order inserted; a running server folds every 10 s) is timed, then
// VACUUM ANALYZE, as autovacuum would.
import { sql } from "kysely";
import { createTestDatabase, withHandle } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { signInDemoAdmin } from "../tests/helpers/sessions.ts";
import { createReseller } from "../src/domain/auth/users.ts";
import {
  LIFETIME_START,
  rollUpDashboard,
  saveDashboardExclusions,
} from "../src/domain/admin/dashboard.ts";
import { percentile } from "./harness.ts";

const count = Number(Deno.args[0] ?? 1_000_000);
const calls = Number(Deno.args[1] ?? 50);
const RESELLERS = 10;

Deno.env.set(
  "TEST_DATABASE_URL",
  Deno.env.get("BENCH_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/test",
);
const tdb = await createTestDatabase("postgres");
try {
  const loadStarted = performance.now();
  await withHandle(tdb, async (db) => {
    const ids: string[] = [];
    for (let i = 0; i < RESELLERS; i++) {
      const r = await createReseller(db, {
        name: `Bench ${i}`,
        email: `bench${i}@bench.example`,
        password: "bench-password",
        balanceCents: 1_000_000,
        markup: {},
        twoFAEnabled: false,
        createdBy: "bench",
      });
      ids.push(r._id);
    }
    // One internal account excluded, as an admin would set it: the sums skip its orders.
    await saveDashboardExclusions(db, {
      excludedAccounts: ["Bench 0"],
      hiddenResellerNames: [],
    }, { type: "cli", name: "bench" });
    const idList = sql.join(ids.map((id) => sql`${id}::uuid`));
    await sql`
      INSERT INTO orders (id, buyer_type, status, reseller_id, reseller_name, game, package, item,
        denom, user_id, amount_cents, cost, supplier, created_at, updated_at)
      SELECT 'B' || i,
        CASE WHEN i % 5 = 0 THEN 'consumer' ELSE 'reseller' END,
        CASE WHEN i % 10 = 1 THEN 'error' WHEN i % 20 = 3 THEN 'pending'
          WHEN i % 20 = 5 THEN 'pending-customer-payment' ELSE 'successful' END,
        CASE WHEN i % 5 = 0 THEN NULL ELSE (ARRAY[${idList}])[1 + (i / 5) % ${RESELLERS}] END,
        CASE WHEN i % 5 = 0 THEN NULL ELSE 'Bench ' || ((i / 5) % ${RESELLERS}) END,
        CASE WHEN i % 4 = 3 THEN 'Genshin Impact' ELSE 'Mobile Legends' END,
        (ARRAY['mlbb', 'mlbb_special', 'mlbb_global', NULL])[1 + i % 4],
        '86 Diamonds', '86', (10000000 + i)::text,
        100 + i % 5000, round((100 + i % 5000) * 0.0085, 4), 'elephant',
        now() - i * interval '1 minute', now() - i * interval '1 minute'
      FROM generate_series(1, ${count}) AS i`.execute(db);
    console.log(
      `orders inserted:   ${count.toLocaleString("en-US")} in ${
        ((performance.now() - loadStarted) / 1000).toFixed(1)
      } s`,
    );
    const foldStarted = performance.now();
    const lines = await rollUpDashboard(db);
    console.log(
      `first fold:        ${lines.toLocaleString("en-US")} change lines in ${
        ((performance.now() - foldStarted) / 1000).toFixed(1)
      } s (then VACUUM ANALYZE)`,
    );
    await sql`VACUUM ANALYZE orders`.execute(db);
  });

  const server = await startTestServer(tdb);
  try {
    const admin = await signInDemoAdmin(server.url);
    for (let i = 0; i < 3; i++) await admin.get("/api/dashboard");
    const latencies: number[] = [];
    let body: { totals: { orders: number; revenue: number } } | undefined;
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      const r = await admin.get("/api/dashboard");
      latencies.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`dashboard answered ${r.status}: ${r.text}`);
      body = r.json;
    }
    latencies.sort((a, b) => a - b);
    console.log(`dashboard calls:   ${calls}, one at a time, after 3 warm-up calls`);
    console.log(`latency p50:       ${percentile(latencies, 50).toFixed(1)} ms`);
    console.log(`latency p95:       ${percentile(latencies, 95).toFixed(1)} ms`);
    console.log(`latency max:       ${latencies[latencies.length - 1].toFixed(1)} ms`);
    console.log(`totals:            ${JSON.stringify(body?.totals)}`);
    // The same lifetime figures summed straight from the orders: the daily totals folded from the
    // bulk load's change lines must agree.
    const direct = await withHandle(tdb, async (db) =>
      (await sql<{ n: string; cents: string }>`
        SELECT count(*)::text AS n, sum(amount_cents)::text AS cents FROM orders
        WHERE status = 'successful' AND created_at >= ${LIFETIME_START}
          AND (reseller_id IS NULL OR reseller_name <> 'Bench 0')`.execute(db)).rows[0]);
    const agree = Number(direct.n) === body?.totals.orders &&
      Number(direct.cents) === Math.round((body?.totals.revenue ?? 0) * 100);
    console.log(`direct sum agrees: ${agree ? "yes" : `NO (${JSON.stringify(direct)})`}`);
  } finally {
    await server.stop();
  }
} finally {
  await tdb.drop();
}
