// One backend: what the CLI says about itself, whatever the database.
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";
import pkg from "../../package.json" with { type: "json" };

Deno.test("[cli] --version names the version and the last migration it knows", async () => {
  const run = await runCli(["--version"], {});
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stdout,
    `topup ${pkg.version} (migrations up to ${Object.keys(MIGRATIONS).at(-1)})\n`,
  );
});

Deno.test("[cli] maintenance --help says what it deletes, and after how long, in one sentence", async () => {
  const run = await runCli(["maintenance", "--help"], {});
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout.replace(/\s+/g, " "),
    /Delete expired sessions and old login counters, idempotency keys older than \d+ days, finished jobs older than \d+ days and webhook events older than \d+ days \(the app also does this hourly\)/,
  );
});
