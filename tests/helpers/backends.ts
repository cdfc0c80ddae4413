import postgres from "postgres";
import { createDb, type Db, migrateToLatest } from "../../src/db/client.ts";
import type { StatementListener } from "../../src/db/statement-log.ts";
import { checkLedger } from "../../src/domain/ledger/ledger.ts";

export type Backend = "pglite" | "postgres";

/** The backend this test run targets: TEST_BACKEND, else PostgreSQL when TEST_DATABASE_URL is set. */
export function testBackend(): Backend {
  const chosen = Deno.env.get("TEST_BACKEND");
  if (chosen === "pglite" || chosen === "postgres") return chosen;
  return Deno.env.get("TEST_DATABASE_URL") ? "postgres" : "pglite";
}

export interface TestDatabase {
  backend: Backend;
  /** Environment for a server or CLI process using this database. */
  env: Record<string, string>;
  /**
   * Opens a handle (close it before a server process opens the same PGlite folder), telling
   * `onStatement` each statement it sends when given.
   */
  open(onStatement?: StatementListener): Db;
  /** Checks the money invariant (every test ends with sound ledgers), then deletes the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated, empty database: a temporary PGlite folder or a new PostgreSQL database.
 * `migrate: false` leaves it empty, for another revision's code to migrate (a bench's "before").
 */
export async function createTestDatabase(
  backend: Backend = testBackend(),
  { migrate = true }: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  if (backend === "pglite") {
    const dataDir = await Deno.makeTempDir({ prefix: "topup-test-" });
    const db = createDb({ dataDir });
    await migrateToLatest(db);
    await db.destroy();
    return {
      backend,
      env: { DATA_DIR: dataDir },
      open: (onStatement) => createDb({ dataDir, onStatement }),
      drop: async () => {
        await assertLedgerSound(createDb({ dataDir }));
        await Deno.remove(dataDir, { recursive: true });
      },
    };
  }
  const adminUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `topup_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  if (migrate) {
    const db = createDb({ databaseUrl, dataDir: "", maxConnections: 2 });
    await migrateToLatest(db);
    await db.destroy();
  }
  return {
    backend,
    env: { DATABASE_URL: databaseUrl, DATA_DIR: "/nonexistent" },
    open: (onStatement) => createDb({ databaseUrl, dataDir: "", maxConnections: 20, onStatement }),
    drop: async () => {
      await assertLedgerSound(createDb({ databaseUrl, dataDir: "", maxConnections: 1 }));
      const conn = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await conn.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await conn.end();
    },
  };
}

/** After any test: every balance equals the sum of its history and none is negative. */
async function assertLedgerSound(db: Db): Promise<void> {
  try {
    const violations = await checkLedger(db);
    if (violations.length) {
      throw new Error(`ledger invariant broken: ${JSON.stringify(violations)}`);
    }
  } finally {
    await db.destroy();
  }
}

/** Runs `fn` with a handle on the test database and closes it after. */
export async function withHandle<T>(
  tdb: TestDatabase,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  const db = tdb.open();
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
