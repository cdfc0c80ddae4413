// Which database a CLI command works on, as an operator (or cron, with no environment) meets it:
// only `serve`, `migrate` and `seed` may create the embedded database; every other command refuses
// a missing one, or one without the app's tables, with one line naming DATABASE_URL, and says which
// database it opened unless --quiet.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { createPostgresDatabase, createTestDatabase, testBackend } from "../helpers/backends.ts";
import { runCli } from "../helpers/cli.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

const NO_DATABASE =
  /^Error: No database: DATABASE_URL is not set and there is no embedded database in \.\/data \(DATA_DIR\); set DATABASE_URL \(for cron, in its environment file\), or create a local one with `migrate`$/m;

Deno.test({
  name:
    "[cli] with no DATABASE_URL and no data folder, backup and every command but serve, migrate and seed refuse, naming DATABASE_URL, and create nothing",
  ...opts,
  async fn() {
    const cwd = await Deno.makeTempDir({ prefix: "topup-cron-cwd-" });
    try {
      for (
        const args of [
          ["backup", `${cwd}/nightly.dump`],
          ["status"],
          ["orders", "refresh", "--pending"],
          ["payments", "reconcile"],
          ["sync-prices"],
          ["reseller", "list"],
          ["ledger", "check"],
          ["maintenance"],
          ["migrate", "status"],
          ["worker"],
        ]
      ) {
        const run = await runCli(args, {}, { cwd });
        assert.notEqual(run.code, 0, `${args.join(" ")}: ${run.stdout}`);
        assert.match(run.stderr, NO_DATABASE, args.join(" "));
        assert.equal(run.stdout, "", args.join(" "));
        assert.ok(!existsSync(`${cwd}/data`), `${args.join(" ")} created ./data`);
        assert.ok(!existsSync(`${cwd}/nightly.dump`), "no backup file");
      }
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
  },
});

Deno.test({
  name:
    `[cli:${backend}] a database without the app's tables is refused, naming it and DATABASE_URL`,
  ...opts,
  async fn() {
    let env: Record<string, string>;
    let name: string;
    let drop: () => Promise<void>;
    if (backend === "pglite") {
      const dataDir = await Deno.makeTempDir({ prefix: "topup-bare-" });
      const pglite = new PGlite(`${dataDir}/pglite`);
      await pglite.waitReady;
      await pglite.close();
      env = { DATA_DIR: dataDir };
      name = `PGlite in ${dataDir}`;
      drop = () => Deno.remove(dataDir, { recursive: true });
    } else {
      const empty = await createPostgresDatabase("topup_bare");
      env = { DATABASE_URL: empty.databaseUrl };
      name = `PostgreSQL ${empty.name}`;
      drop = empty.dropDatabase;
    }
    try {
      for (const args of [["reseller", "list"], ["orders", "refresh"], ["ledger", "check"]]) {
        const run = await runCli(args, env);
        assert.equal(run.code, 1, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(
            `^Error: ${name} .*has none of the app's tables: check DATABASE_URL, or create them with \`migrate\`$`,
            "m",
          ),
        );
      }
    } finally {
      await drop();
    }
  },
});

Deno.test({
  name:
    `[cli:${backend}] a command names the database it works on, and --quiet prints nothing when all is well`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      const run = await runCli(["ledger", "check"], tdb.env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        backend === "pglite"
          ? new RegExp(`^Database: PGlite in ${tdb.env.DATA_DIR}$`, "m")
          : /^Database: PostgreSQL topup_test_\w+ on 127\.0\.0\.1:5432 as postgres$/m,
      );
      assert.match(run.stdout, /^Invariants hold/m);
      const quiet = await runCli(["ledger", "check", "--quiet"], tdb.env);
      assert.deepEqual(quiet, { code: 0, stdout: "", stderr: "" });
    } finally {
      await tdb.drop();
    }
  },
});
