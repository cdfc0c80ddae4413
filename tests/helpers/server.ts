import type { TestDatabase } from "./backends.ts";

/**
 * For a test that forces a supplier or HitPay timeout, or answers slower than this: each forced
 * timeout then costs the test one second.
 */
export const SHORT_SUPPLIER_TIMEOUT = { SUPPLIER_TIMEOUT_MS: "1000" };

export interface TestServer {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (no shutdown of any kind), as a crash would. */
  crash(): Promise<void>;
  /** Waits for the process to end by itself (after a signal the test sent); its exit code. */
  exited(): Promise<number>;
}

/**
 * Starts `cli/main.ts serve --no-build` on a free port against the test database; from `cwd`
 * (default this checkout: the benches serve an older revision's copy to compare).
 */
export async function startTestServer(
  tdb: TestDatabase,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<TestServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      // BENCH_CPU_PROF=DIR: a bench writes the server's V8 CPU profile there when it stops.
      ...(Deno.env.get("BENCH_CPU_PROF")
        ? ["--cpu-prof", `--cpu-prof-dir=${Deno.env.get("BENCH_CPU_PROF")}`]
        : []),
      "cli/main.ts",
      "serve",
      "--no-build",
    ],
    cwd,
    env: {
      APP_MODE: "demo",
      PORT: "0",
      HOST: "127.0.0.1",
      ASTRO_NODE_LOGGING: "disabled",
      // The simulators answer from inside this server: a call that takes 5 s is a machine too
      // busy to serve it (PGlite's queries hold the same event loop), not a supplier fault. A test
      // that forces a timeout or a slow answer sets its own (SHORT_SUPPLIER_TIMEOUT).
      SUPPLIER_TIMEOUT_MS: "5000",
      // One process unless a test asks for more: tests address the simulators of one instance.
      WORKERS: "1",
      ...tdb.env,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  const pumps = [pump(child.stdout), pump(child.stderr)];
  const started = Date.now();
  while (!/Serving on (http:\/\/\S+)/.test(output)) {
    if (Date.now() - started > 120_000) {
      child.kill();
      throw new Error(`server did not start:\n${output}`);
    }
    const exited = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 50)),
    ]);
    if (exited) throw new Error(`server exited:\n${output}`);
  }
  const url = output.match(/Serving on (http:\/\/\S+)/)![1];
  let stopped: Promise<void> | undefined;
  return {
    url,
    pid: child.pid,
    output: () => output,
    // Idempotent: a test may stop the server to read its whole output, and stop again in finally.
    stop() {
      return stopped ??= (async () => {
        child.kill("SIGTERM");
        await child.status;
        await Promise.all(pumps);
      })();
    },
    async crash() {
      child.kill("SIGKILL");
      await child.status;
      await Promise.all(pumps);
    },
    async exited() {
      const { code } = await child.status;
      await Promise.all(pumps);
      return code;
    },
  };
}
