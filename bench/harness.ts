import { createTestDatabase, type TestDatabase, withHandle } from "../tests/helpers/backends.ts";
import { startTestServer, type TestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/client.ts";
import { createReseller } from "../src/domain/users.ts";

/** User + system CPU time of a process in ms, from /proc (Linux, USER_HZ = 100). */
export async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The p-th percentile of ascending values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface BenchApp {
  tdb: TestDatabase;
  server: TestServer;
  /** One signed-in reseller per client, each with its own session. */
  sessions: TestClient[];
  stop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database (BENCH_DATABASE_URL, default the local `test` server) with one
 * reseller per client, the built app serving it, and every reseller signed in.
 */
export async function startBenchApp(
  clients: number,
  options: { balanceCents: number; env?: Record<string, string> },
): Promise<BenchApp> {
  const adminUrl = Deno.env.get("BENCH_DATABASE_URL") ??
    "postgres://postgres@127.0.0.1:5432/test";
  Deno.env.set("TEST_DATABASE_URL", adminUrl);
  const tdb = await createTestDatabase("postgres");
  const password = "bench-password";
  await withHandle(tdb, async (db) => {
    await Promise.all(Array.from({ length: clients }, (_, i) =>
      createReseller(db, {
        name: `Bench ${i}`,
        email: `bench${i}@bench.example`,
        password,
        balanceCents: options.balanceCents,
        markup: { pubgm: 5 },
        twoFAEnabled: false,
        createdBy: "bench",
      })));
  });
  const server = await startTestServer(tdb, options.env);
  const stop = async () => {
    await server.stop().catch(() => {});
    await tdb.drop().catch(() => {});
  };
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
    return { tdb, server, sessions, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface LoadResult {
  /** Request latencies in ms, ascending. */
  latencies: number[];
  failures: number;
  /** The app process's CPU time over the run, in ms. */
  cpuUsedMs: number;
}

/**
 * Every session sends `send` back to back until `seconds` pass (a closed loop: one request in
 * flight per client); `send` says whether the answer was the expected one.
 */
export async function runClosedLoop(
  app: BenchApp,
  seconds: number,
  send: (client: TestClient) => Promise<boolean>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const cpuBefore = await cpuMs(app.server.pid);
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(app.sessions.map(async (c) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const ok = await send(c);
      latencies.push(performance.now() - t0);
      if (!ok) failures++;
    }
  }));
  const cpuUsedMs = await cpuMs(app.server.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return { latencies, failures, cpuUsedMs };
}
