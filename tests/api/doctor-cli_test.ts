// `npm run cli -- doctor` as an operator runs it: what it prints and its exit code. The checks
// themselves are tests/integrations/doctor_test.ts (examineSetup, in process); this file only
// holds the CLI door to them, in a process of its own like the other CLI tests.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): the doctor's
// checks of the environment and the outside services.
import assert from "node:assert/strict";
import { productionEnv, unreachableServices } from "../helpers/production.ts";
import { runCli } from "../helpers/cli.ts";

/** Runs `cli/main.ts doctor ARGS` with only `env` (and what Deno itself needs) set. */
const runDoctor = (args: string[], env: Record<string, string>) => runCli(["doctor", ...args], env);

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

Deno.test("[doctor cli] --json gives scripts the mode, each problem and each service", async () => {
  const demo = await runDoctor(["--json"], {});
  assert.equal(demo.code, 0, demo.stderr);
  const report = JSON.parse(demo.stdout);
  assert.deepEqual([report.ok, report.mode, report.problems], [true, "demo", []]);
  assert.deepEqual(
    report.services.map((s: { name: string; mode: string }) => [s.name, s.mode]),
    [["MooGold", "simulator"], ["EliteDias", "simulator"], ["HitPay", "simulator"], [
      "Yahoo Finance",
      "simulator",
    ]],
  );
  const broken = await runDoctor(["--json"], { APP_MODE: "production" });
  assert.equal(broken.code, 1);
  const refused = JSON.parse(broken.stdout);
  assert.equal(refused.ok, false);
  assert.ok(refused.problems.some((p: string) => /^PUBLIC_URL/.test(p)), broken.stdout);
});
