// `status` for a monitor or cron: one exit code per state of readiness, and an answer within its
// time limit even from a database that accepts connections and never answers.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { runCli } from "../helpers/cli.ts";
import type { OperationsStatusDto } from "../../src/shared/operations-types.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name:
    `[status:${backend}] exits 0 when ready, 3 with migrations to apply, 4 when the database is newer than the code`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      const ready = await runCli(["status"], tdb.env);
      assert.equal(ready.code, 0, ready.stderr);
      assert.match(ready.stdout, /^Readiness: ready$/m);

      const last = await withHandle(tdb, async (db) => {
        const { rows: [row] } = await sql<{ name: string; timestamp: string }>`
          SELECT name, timestamp FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
        await sql`DELETE FROM kysely_migration WHERE name = ${row.name}`.execute(db);
        return row;
      });
      const behind = await runCli(["status"], tdb.env);
      assert.equal(behind.code, 3, behind.stdout + behind.stderr);
      assert.match(behind.stdout, /^Readiness: NOT READY$/m);
      assert.match(behind.stdout, new RegExp(`^  FAIL migrations: not applied: ${last.name}`, "m"));

      await withHandle(tdb, async (db) => {
        await sql`INSERT INTO kysely_migration (name, timestamp) VALUES
          (${last.name}, ${last.timestamp}), ('9999_from_a_newer_version', ${last.timestamp})`
          .execute(db);
      });
      const ahead = await runCli(["status", "--json"], tdb.env);
      assert.equal(ahead.code, 4, ahead.stdout + ahead.stderr);
      const json = JSON.parse(ahead.stdout) as OperationsStatusDto;
      assert.equal(json.readiness?.ready, false);
      assert.deepEqual(json.readiness?.checks.find((c) => c.name === "code"), {
        name: "code",
        ok: false,
        detail:
          "older than the database, which has 9999_from_a_newer_version: run the newer version",
      });
      await withHandle(
        tdb,
        (db) =>
          sql`DELETE FROM kysely_migration WHERE name = '9999_from_a_newer_version'`.execute(db),
      );
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name: "[status] a database that accepts connections but never answers: exit 2 within --timeout",
  ...opts,
  async fn() {
    // Takes connections and never says a word, as a database host whose server is wedged.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) held.push(conn);
    })();
    try {
      const started = performance.now();
      const run = await runCli(["status", "--timeout", "3"], {
        DATABASE_URL: `postgres://topup@127.0.0.1:${listener.addr.port}/topup`,
      }, { timeoutMs: 60_000 });
      const seconds = (performance.now() - started) / 1000;
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout, /^ {2}FAIL database: unreachable: no answer within 3 s$/m);
      assert.ok(seconds < 20, `status took ${seconds.toFixed(1)} s`);
    } finally {
      listener.close();
      await accepting.catch(() => {});
      for (const conn of held) conn.close();
    }
  },
});

Deno.test({
  name:
    "[status:postgres] a database that connects but leaves a query waiting on a lock: exit 2 within --timeout",
  ignore: backend !== "postgres",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, (db) =>
        db.transaction().execute(async (trx) => {
          // The operations view reads the job queue: a migration holding its table stalls it.
          await sql`LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE`.execute(trx);
          const started = performance.now();
          const run = await runCli(["status", "--timeout", "3"], tdb.env, { timeoutMs: 60_000 });
          const seconds = (performance.now() - started) / 1000;
          assert.equal(run.code, 2, run.stdout + run.stderr);
          assert.match(run.stdout, /^ {2}FAIL database: unreachable: no answer within 3 s$/m);
          assert.ok(seconds < 20, `status took ${seconds.toFixed(1)} s`);
        }));
    } finally {
      await tdb.drop();
    }
  },
});
