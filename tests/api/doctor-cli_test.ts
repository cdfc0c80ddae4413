// `npm run cli -- doctor` as an operator runs it: what it prints and its exit code. The checks
// themselves are tests/integrations/doctor_test.ts (examineSetup, in process); this file only
// holds the CLI door to them, in a process of its own like the other CLI tests.
import assert from "node:assert/strict";
import { productionEnv, unreachableServices } from "../helpers/production.ts";

/** Runs `cli/main.ts doctor ARGS` with only `env` (and what Deno itself needs) set. */
async function runDoctor(args: string[], env: Record<string, string>) {
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"].flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", "doctor", ...args],
    clearEnv: true,
    env: { ...inherited, DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

Deno.test("[doctor cli] the demo prints each service as simulated and exits 0", async () => {
  const { code, stdout, stderr } = await runDoctor([], {});
  assert.equal(code, 0, stdout + stderr);
  assert.match(stdout, /^ {2}HitPay: simulated$/m);
});

Deno.test("[doctor cli] --live without a network exits 1, naming each service", async () => {
  const { code, stdout, stderr } = await runDoctor(["--live"], {
    ...productionEnv(unreachableServices()),
    SUPPLIER_TIMEOUT_MS: "1000",
  });
  assert.equal(code, 1, stdout + stderr);
  for (const service of ["MooGold", "EliteDias", "HitPay", "Yahoo Finance"]) {
    assert.match(stdout, new RegExp(`^  ${service}: FAILED, `, "m"));
  }
});
