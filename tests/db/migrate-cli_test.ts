// `migrate` as an operator uses it around a deploy: see what is applied and what would be, apply,
// and undo the last one (asked first, as it may drop what the migration made).
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { runCli } from "../helpers/cli.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";

const backend = testBackend();

Deno.test({
  name:
    `[migrate:${backend}] status and --dry-run list what is pending and change nothing; down undoes the last one only with --yes`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const names = Object.keys(MIGRATIONS);
    const last = names.at(-1)!;
    const applied = () =>
      withHandle(
        tdb,
        async (db) =>
          (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db))
            .rows.map((r) => r.name),
      );
    try {
      const status = await runCli(["migrate", "status", "--json"], tdb.env);
      assert.equal(status.code, 0, status.stderr);
      const rows = JSON.parse(status.stdout) as { name: string; state: string }[];
      assert.deepEqual(rows.map((r) => [r.name, r.state]), names.map((n) => [n, "applied"]));

      const refused = await runCli(["migrate", "down"], tdb.env);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(
        refused.stderr,
        new RegExp(
          `^Error: migrate down undoes ${last} in .+: pass --yes to confirm \\(no terminal to ask on\\)$`,
          "m",
        ),
      );
      assert.deepEqual(await applied(), names);

      const down = await runCli(["migrate", "down", "--yes"], tdb.env);
      assert.equal(down.code, 0, down.stderr);
      assert.match(down.stdout, new RegExp(`^Undone: ${last}$`, "m"));
      assert.deepEqual(await applied(), names.slice(0, -1));

      const dry = await runCli(["migrate", "--dry-run"], tdb.env);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, new RegExp(`^Would apply: ${last}$`, "m"));
      assert.deepEqual(await applied(), names.slice(0, -1), "a dry run applies nothing");
      const pending = await runCli(["migrate", "status"], tdb.env);
      assert.match(pending.stdout, new RegExp(`^pending +${last}$`, "m"));

      const up = await runCli(["migrate"], tdb.env);
      assert.equal(up.code, 0, up.stderr);
      assert.match(up.stdout, new RegExp(`^Applied: ${last}$`, "m"));
      assert.deepEqual(await applied(), names);
    } finally {
      await tdb.drop();
    }
  },
});
