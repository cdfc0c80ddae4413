import { cp } from "node:fs/promises";
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
 * A migrated, empty database that test databases are copied from: PGlite's initdb alone takes
 * seconds (10 on a loaded two-core machine), a copy of the folder half of one. `npm test` makes one
 * per backend for the whole run and names it in TEST_PGLITE_TEMPLATE / TEST_POSTGRES_TEMPLATE;
 * without them each process makes its PGlite template on first use.
 */
export async function createDatabaseTemplate(backend: Backend): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  if (backend === "pglite") {
    const dataDir = await Deno.makeTempDir({ prefix: "topup-template-" });
    const db = createDb({ dataDir });
    await migrateToLatest(db);
    await db.destroy();
    return {
      env: { TEST_PGLITE_TEMPLATE: dataDir },
      drop: () => Deno.remove(dataDir, { recursive: true }),
    };
  }
  const { name, databaseUrl, dropDatabase } = await createPostgresDatabase("topup_template");
  const db = createDb({ databaseUrl, dataDir: "", maxConnections: 1 });
  await migrateToLatest(db);
  await db.destroy();
  return { env: { TEST_POSTGRES_TEMPLATE: name }, drop: dropDatabase };
}

let processTemplate: Promise<string> | undefined;

/** The PGlite folder to copy: the run's, or this process's own, removed when it exits. */
function pgliteTemplate(): Promise<string> {
  const given = Deno.env.get("TEST_PGLITE_TEMPLATE");
  if (given) return Promise.resolve(given);
  processTemplate ??= createDatabaseTemplate("pglite").then(({ env }) => {
    addEventListener(
      "unload",
      () => Deno.removeSync(env.TEST_PGLITE_TEMPLATE, { recursive: true }),
    );
    return env.TEST_PGLITE_TEMPLATE;
  });
  return processTemplate;
}

/**
 * A new PostgreSQL database on TEST_DATABASE_URL's server, named `prefix` and a random suffix:
 * empty (not even migrated), or a copy of the database `template`; `dropDatabase` deletes it.
 */
export async function createPostgresDatabase(
  prefix: string,
  template?: string,
): Promise<{ name: string; databaseUrl: string; dropDatabase: () => Promise<void> }> {
  const adminUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      const conn = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await conn.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await conn.end();
      }
    },
  };
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
    if (migrate) await cp(await pgliteTemplate(), dataDir, { recursive: true });
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
  const template = migrate ? Deno.env.get("TEST_POSTGRES_TEMPLATE") : undefined;
  const { databaseUrl, dropDatabase } = await createPostgresDatabase("topup_test", template);
  if (migrate && !template) {
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
      await dropDatabase();
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
