// Small reads over HTTP (quality bar: p99 < 50 ms): `GET /api/current_user` (session + user) and
// `GET /api/resellers/game/{id}` (a game with the reseller's prices), 50 signed-in resellers
// reading back to back. PostgreSQL only: BENCH_DATABASE_URL (default the local `test` database).
//
//   node_modules/.bin/deno run -A bench/small-reads_bench.ts [clients=50] [seconds=10]
import { pubgOrder } from "../tests/helpers/orders.ts";
import { percentile, runClosedLoop, startBenchApp } from "./harness.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 10);
const app = await startBenchApp(clients, { balanceCents: 100_000, env: { RUN_JOBS: "false" } });
const { sessions } = app;

async function measure(label: string, path: string): Promise<void> {
  const { latencies, failures, cpuUsedMs } = await runClosedLoop(
    app,
    seconds,
    async (c) => (await c.get(path)).status === 200,
  );
  console.log(
    `${label}: ${(latencies.length / seconds).toFixed(0)}/s, p50 ${
      percentile(latencies, 50).toFixed(1)
    } ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, failures ${failures}, ` +
      `app CPU ${(cpuUsedMs / latencies.length).toFixed(2)} ms per request`,
  );
}

try {
  const { pubg } = await pubgOrder(sessions[0]);
  await measure("GET /api/current_user", "/api/current_user");
  await measure("GET /api/resellers/game/{id}", `/api/resellers/game/${pubg._id}`);
} finally {
  await app.stop();
}
