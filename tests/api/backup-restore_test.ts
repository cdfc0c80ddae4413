// The restore drill: a simulation's database is backed up with `cli backup`, restored
// with `cli restore` into an empty database, and everything an operator would check matches: the
// invariants, every reseller's balance, the orders by status. Then `cli status --json` reads the
// restored database. Then the rails: a forced restore asks first and never empties the shop, and a
// backup never replaces a good one with a partial file. On the backend the run targets
// (TEST_BACKEND).
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createDb, type Db } from "../../src/db/client.ts";
import { checkInvariants } from "../../src/domain/ledger/invariants.ts";
import type { OperationsStatusDto } from "../../src/shared/operations-types.ts";
import {
  createPostgresDatabase,
  createTestDatabase,
  testBackend,
  type TestDatabase,
  withHandle,
} from "../helpers/backends.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { runCli } from "../helpers/cli.ts";
import type { TestClient } from "../helpers/client.ts";
import { startTestServer } from "../helpers/server.ts";
import { openSimWorld, runSeed } from "../helpers/simulation.ts";
import { SIM_SERVER_ENV } from "../helpers/simulation-size.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

/** A database with nothing in it, not even the app's tables: where a restore goes. */
async function createEmptyDatabase(): Promise<
  { env: Record<string, string>; open(): Db; drop(): Promise<void> }
> {
  if (backend === "pglite") {
    const dataDir = await Deno.makeTempDir({ prefix: "topup-restore-" });
    return {
      env: { DATA_DIR: dataDir },
      open: () => createDb({ dataDir }),
      drop: () => Deno.remove(dataDir, { recursive: true }),
    };
  }
  const { databaseUrl, dropDatabase } = await createPostgresDatabase("topup_restore");
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: "/nonexistent" },
    open: () => createDb({ databaseUrl, dataDir: "", maxConnections: 2 }),
    drop: dropDatabase,
  };
}

/** What must survive a backup and restore. */
async function snapshot(db: Db) {
  try {
    const count = (
      table: "orders" | "balance_history" | "audit_log" | "supplier_balance_readings",
    ) =>
      db.selectFrom(table).select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow()
        .then((r) => r.n);
    return {
      violations: await checkInvariants(db),
      balances: await db.selectFrom("resellers").select(["id", "balance_cents"]).orderBy("id")
        .execute(),
      ordersByStatus: await db.selectFrom("orders")
        .select(["status", sql<number>`count(*)::int`.as("n")])
        .groupBy("status").orderBy("status").execute(),
      orders: await count("orders"),
      balanceHistory: await count("balance_history"),
      auditLog: await count("audit_log"),
      balanceReadings: await count("supplier_balance_readings"),
    };
  } finally {
    await db.destroy();
  }
}

async function hasBalanceReading(admin: TestClient): Promise<boolean> {
  const status = (await admin.get("/api/admin/operations")).json as OperationsStatusDto;
  return status.balances.some((b) => b.balance !== null);
}

Deno.test({
  name:
    `[backup:${backend}] the restore drill: a simulation backed up and restored into an empty database matches`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const target = await createEmptyDatabase();
    const dir = await Deno.makeTempDir({ prefix: "topup-backup-" });
    const file = `${dir}/topup.backup`;
    try {
      const server = await startTestServer(tdb, SIM_SERVER_ENV);
      try {
        const world = await openSimWorld(server.url);
        await runSeed(world, 1, { steps: 20 });
        // The watch the server queues at start reads the supplier balances; on a loaded machine
        // the seed can end first, so the backup waits for that reading (a minute at most).
        for (let i = 0; i < 600 && !await hasBalanceReading(world.admin); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await server.stop();
      }
      const before = await snapshot(tdb.open());
      assert.deepEqual(before.violations, []);
      assert.ok(before.orders > 0 && before.balances.length > 0, JSON.stringify(before));
      assert.ok(before.balanceReadings > 0, "the server read the supplier balances at start");

      const backup = await runCli(["backup", file], tdb.env);
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stderr, new RegExp(`^Backup written: ${file} \\(.+\\) in .+ s$`, "m"));
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600, "only its owner reads a backup");

      const restore = await runCli(["restore", file], target.env);
      assert.equal(restore.code, 0, restore.stderr);
      assert.match(restore.stderr, new RegExp(`^Restored ${file} in .+ s$`, "m"));
      assert.deepEqual(await snapshot(target.open()), before);

      const again = await runCli(["restore", file], target.env);
      assert.equal(again.code, 1);
      assert.match(
        again.stderr,
        /^Error: The database is not empty \(\d+ tables\): restore into an empty database, or pass --force/m,
      );
      const forced = await runCli(["restore", "--force", "--yes", file], target.env);
      assert.equal(forced.code, 0, forced.stderr);
      assert.deepEqual(await snapshot(target.open()), before);

      const status = await runCli(["status", "--json"], target.env);
      assert.equal(status.code, 0, status.stderr);
      const json = JSON.parse(status.stdout) as OperationsStatusDto;
      assert.deepEqual(
        json.readiness?.checks.map((c) => [c.name, c.ok]),
        [["database", true], ["migrations", true], ["jobs", true]],
        "the restored database is reachable and its migrations current",
      );
      assert.deepEqual(json.balances.map((b) => [b.vendor, b.currency, typeof b.balance]), [
        ["moogold", "USD", "number"],
        ["elitedias", "SGD", "number"],
      ]);
      assert.ok(json.alerts.every((a) => typeof a.subject === "string"));
      assert.equal(json.backlog, json.jobs.reduce((sum, j) => sum + j.due, 0));
      assert.equal(typeof json.needsReview, "number");
    } finally {
      await Deno.remove(dir, { recursive: true });
      await target.drop();
      await tdb.drop();
    }
  },
});

Deno.test(`[backup:${backend}] clear errors: a missing file, another backend's backup`, async () => {
  const target = await createEmptyDatabase();
  const dir = await Deno.makeTempDir({ prefix: "topup-backup-" });
  try {
    const missing = await runCli(["restore", `${dir}/none`], target.env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, new RegExp(`^Error: ${dir}/none: no such file$`, "m"));
    const other = `${dir}/other`;
    await Deno.writeFile(
      other,
      backend === "pglite" ? new TextEncoder().encode("PGDMP...") : new Uint8Array([0x1f, 0x8b, 8]),
    );
    const wrong = await runCli(["restore", other], target.env);
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.stderr,
      backend === "pglite"
        ? /is a PostgreSQL dump: restore it with DATABASE_URL set/
        : /is a PGlite backup: restore it without DATABASE_URL/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
    await target.drop();
  }
});

/** A file's SHA-256, to compare files without diffing their bytes on a mismatch. */
async function digestOf(file: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(file));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Runs `fn` on a small shop: a migrated database with one reseller and its balance, backed up to
 * `dir`/good.backup; both are removed after.
 */
async function withSmallShop(fn: (tdb: TestDatabase, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "topup-backup-" });
  const tdb = await createTestDatabase(backend);
  try {
    await withHandle(tdb, (db) =>
      createTestReseller(db, {
        name: "Backup Shop",
        email: "backup@shop.test",
        password: "a long enough password",
        balanceCents: 12_345,
      }));
    const backup = await runCli(["backup", `${dir}/good.backup`], tdb.env);
    assert.equal(backup.code, 0, backup.stderr);
    await fn(tdb, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await tdb.drop();
  }
}

Deno.test({
  name: `[backup:${backend}] a truncated backup restored with --force leaves the shop as it was`,
  ...opts,
  fn: () =>
    withSmallShop(async (tdb, dir) => {
      const before = await snapshot(tdb.open());
      const good = await Deno.readFile(`${dir}/good.backup`);
      await Deno.writeFile(`${dir}/cut.backup`, good.subarray(0, Math.floor(good.length / 2)));
      const cut = await runCli(["restore", "--force", "--yes", `${dir}/cut.backup`], tdb.env);
      assert.equal(cut.code, 1, cut.stderr);
      assert.match(cut.stderr, /^Error: .*cut\.backup.*nothing was changed/m);
      assert.deepEqual(await snapshot(tdb.open()), before);
    }),
});

Deno.test({
  name:
    `[backup:${backend}] restore --force without a terminal and without --yes refuses and changes nothing`,
  ...opts,
  fn: () =>
    withSmallShop(async (tdb, dir) => {
      await withHandle(
        tdb,
        (db) => db.updateTable("resellers").set({ name: "Renamed Since" }).execute(),
      );
      const before = await snapshot(tdb.open());
      const refused = await runCli(["restore", "--force", `${dir}/good.backup`], tdb.env);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(
        refused.stderr,
        /^Error: restore --force replaces everything in .+: pass --yes to confirm \(no terminal to ask on\)$/m,
      );
      assert.deepEqual(await snapshot(tdb.open()), before);
      const names = await withHandle(
        tdb,
        (db) => db.selectFrom("resellers").select("name").execute(),
      );
      assert.deepEqual(names, [{ name: "Renamed Since" }]);
    }),
});

Deno.test({
  name:
    `[backup:${backend}] restore --force --yes replaces everything: a table the backup lacks is gone`,
  ...opts,
  fn: () =>
    withSmallShop(async (tdb, dir) => {
      const before = await snapshot(tdb.open());
      await withHandle(tdb, async (db) => {
        await sql`CREATE TABLE made_after_backup (id int PRIMARY KEY)`.execute(db);
        await db.updateTable("resellers").set({ balance_cents: 1 }).execute();
        await db.deleteFrom("balance_history").execute();
      });
      const restore = await runCli(["restore", "--force", "--yes", `${dir}/good.backup`], tdb.env);
      assert.equal(restore.code, 0, restore.stderr);
      assert.deepEqual(await snapshot(tdb.open()), before);
      const extra = await withHandle(
        tdb,
        (db) =>
          sql<{ t: string | null }>`SELECT to_regclass('made_after_backup')::text AS t`.execute(db),
      );
      assert.deepEqual(extra.rows, [{ t: null }], "the table made after the backup is gone");
    }),
});

Deno.test({
  name: "[backup:postgres] restore --force refuses while another session uses the database",
  ignore: backend !== "postgres",
  ...opts,
  fn: () =>
    withSmallShop(async (tdb, dir) => {
      const refused = await withHandle(tdb, async (db) => {
        await sql`SELECT 1`.execute(db);
        return await runCli(["restore", "--force", "--yes", `${dir}/good.backup`], tdb.env);
      });
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /^Error: 1 other session uses .+: stop the app/m);
      const alone = await runCli(["restore", "--force", "--yes", `${dir}/good.backup`], tdb.env);
      assert.equal(alone.code, 0, alone.stderr);
    }),
});

Deno.test({
  name:
    "[backup:postgres] a backup that fails halfway leaves the earlier backup whole and no partial file",
  ignore: backend !== "postgres",
  ...opts,
  fn: () =>
    withSmallShop(async (tdb, dir) => {
      const tools = await Deno.makeTempDir({ prefix: "topup-tools-" });
      try {
        const earlier = await digestOf(`${dir}/good.backup`);
        // A pg_dump that writes part of its file, then dies, as one cut off by a lost connection.
        await Deno.writeTextFile(
          `${tools}/pg_dump`,
          '#!/bin/sh\nfor a; do case "$a" in --file=*) f="${a#--file=}";; esac; done\n' +
            'printf PGDMP-partial > "$f"\necho "pg_dump: error: connection lost" >&2\nexit 1\n',
          { mode: 0o755 },
        );
        const failed = await runCli(["backup", `${dir}/good.backup`], {
          ...tdb.env,
          PATH: `${tools}:${Deno.env.get("PATH")}`,
        });
        assert.equal(failed.code, 1, failed.stderr);
        assert.match(failed.stderr, /pg_dump failed \(exit 1\): pg_dump: error: connection lost/);
        assert.equal(await digestOf(`${dir}/good.backup`), earlier, "the earlier backup is whole");
        assert.deepEqual(
          [...Deno.readDirSync(dir)].map((e) => e.name),
          ["good.backup"],
          "no partial file is left",
        );
      } finally {
        await Deno.remove(tools, { recursive: true });
      }
    }),
});
