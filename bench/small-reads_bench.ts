// Small reads over HTTP (quality bar: p99 < 50 ms): `GET /api/current_user` (session + user) and
// `GET /api/resellers/game/{id}` (a game with the reseller's prices), 50 signed-in resellers
// reading back to back. PostgreSQL only: BENCH_DATABASE_URL (default the local `test` database).
//
//   node_modules/.bin/deno run -A bench/small-reads_bench.ts [clients=50] [seconds=10]
import { createTestDatabase, withHandle } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/client.ts";
import { createReseller } from "../src/domain/users.ts";
import { cpuMs, percentile } from "./measure.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 10);
const adminUrl = Deno.env.get("BENCH_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/test";
Deno.env.set("TEST_DATABASE_URL", adminUrl);

const tdb = await createTestDatabase("postgres");
const password = "bench-password";
await withHandle(tdb, async (db) => {
  await Promise.all(Array.from({ length: clients }, (_, i) =>
    createReseller(db, {
      name: `Bench ${i}`,
      email: `bench${i}@bench.example`,
      password,
      balanceCents: 100_000,
      markup: { pubgm: 5 },
      twoFAEnabled: false,
      createdBy: "bench",
    })));
});
const server = await startTestServer(tdb, { RUN_JOBS: "false" });

async function measure(label: string, sessions: TestClient[], path: string): Promise<void> {
  const latencies: number[] = [];
  let failures = 0;
  const cpuBefore = await cpuMs(server.pid);
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(sessions.map(async (c) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const r = await c.get(path);
      latencies.push(performance.now() - t0);
      if (r.status !== 200) failures++;
    }
  }));
  const cpuUsed = await cpuMs(server.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: ${(latencies.length / seconds).toFixed(0)}/s, p50 ${
      percentile(latencies, 50).toFixed(1)
    } ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, failures ${failures}, ` +
      `app CPU ${(cpuUsed / latencies.length).toFixed(2)} ms per request`,
  );
}

try {
  const sessions = await Promise.all(Array.from({ length: clients }, async (_, i) => {
    const c = new TestClient(server.url);
    const r = await c.post("/api/login_reseller", {
      username: `bench${i}@bench.example`,
      password,
    });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.text}`);
    return c;
  }));
  const games = (await sessions[0].get("/api/reseller/games")).json as {
    _id: string;
    supplierName: string;
  }[];
  const pubg = games.find((g) => g.supplierName === "pubgm")!;
  await measure("GET /api/current_user", sessions, "/api/current_user");
  await measure("GET /api/resellers/game/{id}", sessions, `/api/resellers/game/${pubg._id}`);
} finally {
  await server.stop();
  await tdb.drop();
}
