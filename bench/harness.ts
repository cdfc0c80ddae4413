import { createTestDatabase, type TestDatabase, withHandle } from "../tests/helpers/backends.ts";
import { startTestServer, type TestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/client.ts";
import { simControl } from "../tests/helpers/sessions.ts";
import { createReseller } from "../src/domain/auth/users.ts";
import { buildApp } from "../cli/build.ts";
import { LeanClient } from "./lean-client.ts";
import { type Migration, Migrator } from "kysely/migration";
import type { Db } from "../src/db/client.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";

/** User + system CPU time of a process in ms, from /proc (Linux, USER_HZ = 100). */
export async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time of every PostgreSQL server process on this machine in ms, what a run cost the database
 * beside what it cost the app: each process's own, plus the time of the backends that have ended
 * (pgbench's connections close before its run is read), which the postmaster holds as its reaped
 * children's.
 */
export async function postgresCpuMs(): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      if (!stat.includes(" (postgres) ")) continue;
      const fields = stat.split(") ")[1].split(" ");
      // utime + stime, then cutime + cstime (only the postmaster has children).
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) *
        10;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

/** The p-th percentile of ascending values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The simulated suppliers' balance for a bench: more than any run spends. */
const SUPPLIER_BALANCE = "1000000000";

/** A helper process of a bench, started and ready. */
export interface BenchProcess {
  pid: number;
  /** What it printed, standard output and error together. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `deno run -A ARGS` (in `cwd`) and waits until it prints a line matching `ready`; the
 * match's first group, if any, is returned as `ready`'s value.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd?: string,
): Promise<BenchProcess & { ready: string }> {
  const profile = Deno.env.get("BENCH_CPU_PROF");
  const child = new Deno.Command(Deno.execPath(), {
    // BENCH_CPU_PROF=DIR: the process writes its V8 CPU profile there when it stops, as the app's.
    args: ["run", "-A", ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []), ...args],
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const pumps = [child.stdout, child.stderr].map(async (stream) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  });
  const started = Date.now();
  let exited = false;
  child.status.then(() => exited = true);
  while (!ready.test(output)) {
    if (exited || Date.now() - started > 30_000) {
      if (!exited) child.kill();
      throw new Error(`${args.join(" ")} did not start:\n${output}`);
    }
    await new Promise((ok) => setTimeout(ok, 50));
  }
  return {
    pid: child.pid,
    ready: output.match(ready)![1] ?? "",
    output: () => output,
    async stop() {
      if (!exited) child.kill("SIGTERM");
      await child.status;
      await Promise.all(pumps);
    },
  };
}

export interface BenchApp {
  tdb: TestDatabase;
  server: TestServer;
  /** With `worker`: the `cli worker` process that runs the jobs, and the simulators' process. */
  worker?: BenchProcess;
  simulators?: BenchProcess;
  /** One signed-in reseller per client, each with its own session. */
  sessions: TestClient[];
  /** The load generator: one lean connection per session, sending its cookie. */
  lean: LeanClient[];
  stop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database (BENCH_DATABASE_URL, default the local `test` server) with one
 * reseller per client (or `resellers` of them, client i signed in as reseller i modulo their
 * number), the built app serving it, and every client signed in.
 */
export async function startBenchApp(
  clients: number,
  options: {
    balanceCents: number;
    env?: Record<string, string>;
    resellers?: number;
    /** Serve the copy of the app in this folder (`checkoutRevision`) instead of this checkout. */
    cwd?: string;
    /**
     * Jobs run in a `cli worker` process of their own (the app serves HTTP only, RUN_JOBS=false)
     * and the simulated suppliers in a third process, so that each process's CPU is its own work.
     */
    worker?: boolean;
  },
): Promise<BenchApp> {
  const resellers = options.resellers ?? clients;
  const adminUrl = Deno.env.get("BENCH_DATABASE_URL") ??
    "postgres://postgres@127.0.0.1:5432/test";
  Deno.env.set("TEST_DATABASE_URL", adminUrl);
  const tdb = await createTestDatabase("postgres");
  // An older revision refuses a database that has migrations it does not know: take them back.
  if (options.cwd) await withHandle(tdb, (db) => migrateToRevision(db, options.cwd!));
  const password = "bench-password";
  await withHandle(tdb, async (db) => {
    await Promise.all(Array.from({ length: resellers }, (_, i) =>
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
  const demo = { APP_MODE: "demo", ...tdb.env };
  const simulators = options.worker
    ? await startProcess(["bench/supplier-simulators.ts"], demo, /Simulators on (\S+)/)
    : undefined;
  const server = await startTestServer(tdb, {
    ...options.env,
    ...simulators ? { RUN_JOBS: "false", TOPUP_SIMULATORS_URL: simulators.ready } : {},
  }, options.cwd).catch(async (error) => {
    await simulators?.stop();
    throw error;
  });
  let lean: LeanClient[] = [];
  let worker: BenchProcess | undefined;
  const stop = async () => {
    for (const c of lean) c.close();
    await server.stop().catch(() => {});
    await worker?.stop().catch(() => {});
    await simulators?.stop().catch(() => {});
    await tdb.drop().catch(() => {});
  };
  try {
    if (simulators) {
      worker = await startProcess(
        ["cli/main.ts", "worker"],
        { ...demo, TOPUP_INTERNAL_URL: simulators.ready, SUPPLIER_TIMEOUT_MS: "1000" },
        /Worker running/,
        options.cwd,
      );
    }
    // The simulated suppliers' accounts start with a demo balance that a run would spend: every
    // later order would be refused (402) and refunded, and measured as a cheaper order.
    for (const supplier of ["elitedias", "moogold"] as const) {
      await simControl(server.url, supplier, "setBalance", [SUPPLIER_BALANCE]);
    }
    // In batches of distinct accounts: sign-ins from one address count against it, and against
    // the account from it, until they succeed (LOGIN_PER_IP: 30, LOGIN_PER_SOURCE: 5), so 50 at
    // once, or a few of one account at once, would be throttled.
    const sessions: TestClient[] = [];
    const batchSize = Math.min(SIGN_IN_BATCH, resellers);
    for (let start = 0; start < clients; start += batchSize) {
      const batch = Array.from(
        { length: Math.min(batchSize, clients - start) },
        (_, j) => start + j,
      );
      sessions.push(
        ...await Promise.all(batch.map(async (i) => {
          const c = new TestClient(server.url);
          const r = await c.post("/api/login_reseller", {
            username: `bench${i % resellers}@bench.example`,
            password,
          });
          if (r.status !== 200) throw new Error(`sign-in failed: ${r.text}`);
          return c;
        })),
      );
    }
    lean = sessions.map((c) => leanClientOf(c));
    return { tdb, server, worker, simulators, sessions, lean, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const SIGN_IN_BATCH = 10;

/** Runs down this checkout's migrations that the revision in `dir` does not have. */
async function migrateToRevision(db: Db, dir: string): Promise<void> {
  const theirs = (await import(`${dir}/src/db/migrations/index.ts`)) as {
    MIGRATIONS: Record<string, Migration>;
  };
  const last = Object.keys(theirs.MIGRATIONS).sort().at(-1)!;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
  });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

/** A lean connection to the same server that sends the client's cookies with every request. */
export function leanClientOf(client: TestClient): LeanClient {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return new LeanClient(client.base, cookie ? { cookie } : {});
}

export interface LoadResult {
  /** Request latencies in ms, ascending. */
  latencies: number[];
  failures: number;
  /** The app process's CPU time over the run, in ms. */
  cpuUsedMs: number;
  /** This process's (the load generator's) CPU time over the run, in ms. */
  loadCpuMs: number;
  /** PostgreSQL's CPU time over the run, in ms. */
  postgresCpuMs: number;
}

/**
 * Every session sends `send` back to back until `seconds` pass (a closed loop: one request in
 * flight per client); `send` says whether the answer was the expected one.
 */
export function runClosedLoop(
  app: BenchApp,
  seconds: number,
  send: (client: LeanClient) => Promise<boolean>,
): Promise<LoadResult> {
  return closedLoop(app.lean, app.server.pid, seconds, send);
}

/** `runClosedLoop` for any clients, measuring the CPU time of the serving process `pid`. */
export async function closedLoop<C>(
  clients: C[],
  pid: number,
  seconds: number,
  send: (client: C) => Promise<boolean>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const cpuBefore = await cpuMs(pid);
  const loadBefore = await cpuMs(Deno.pid);
  const postgresBefore = await postgresCpuMs();
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(clients.map(async (c) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const ok = await send(c).catch(() => false);
      latencies.push(performance.now() - t0);
      if (!ok) failures++;
    }
  }));
  const cpuUsedMs = await cpuMs(pid) - cpuBefore;
  const loadCpuMs = await cpuMs(Deno.pid) - loadBefore;
  const postgresUsedMs = await postgresCpuMs() - postgresBefore;
  latencies.sort((a, b) => a - b);
  return { latencies, failures, cpuUsedMs, loadCpuMs, postgresCpuMs: postgresUsedMs };
}

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/bare-server.ts answering `body` with `contentType`: the HTTP benches' ceiling. */
export async function startBareServer(body: string, contentType: string): Promise<BareServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/bare-server.ts"],
    env: { BARE_BODY: body, BARE_CONTENT_TYPE: contentType },
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/**
 * A built copy of the app at git revision `ref` in a temporary folder (`git archive`, this
 * checkout's node_modules linked), for a bench to serve beside the current code: the "before" of
 * a before/after measured in one run. `remove` deletes the copy.
 */
export async function checkoutRevision(
  ref: string,
): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "topup-bench-" });
  const archive = new Deno.Command("git", { args: ["archive", ref], stdout: "piped" }).spawn();
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(untar.stdin);
  if (!(await archive.status).success || !(await untar.status).success) {
    throw new Error(`could not check out ${ref}`);
  }
  await Deno.symlink(`${Deno.cwd()}/node_modules`, `${dir}/node_modules`);
  await buildApp(dir);
  return { dir, remove: () => Deno.remove(dir, { recursive: true }) };
}

/**
 * The table the HTTP benches print and record, one row per target: throughput, latency, and the
 * CPU per request of the server and of the load generator. `unit` names what is counted.
 */
export function requestTable(unit: "request" | "page", seconds: number) {
  const rows: string[] = [];
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return {
    header: [
      `| target | ${unit}s/s | p50 | p99 | server CPU per ${unit} | load generator CPU per ${unit} | failures |`,
      "| ------ | ------- | --- | --- | ---------------------- | ------------------------------ | -------- |",
    ],
    rows,
    /** Prints the target's row and keeps it; returns its rate per second. */
    report(target: string, run: LoadResult): number {
      const n = run.latencies.length;
      const perSecond = n / seconds;
      const row = `| ${target} | ${perSecond.toFixed(0)} | ${ms(percentile(run.latencies, 50))} | ${
        ms(percentile(run.latencies, 99))
      } | ${(run.cpuUsedMs / n).toFixed(3)} ms | ${
        (run.loadCpuMs / n).toFixed(3)
      } ms | ${run.failures} |`;
      rows.push(row);
      console.log(row);
      return perSecond;
    },
  };
}
