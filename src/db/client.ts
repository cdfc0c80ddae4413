import { type Dialect, Kysely, PGliteDialect, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { PGlite, types } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { join } from "node:path";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Database } from "./schema.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import { loggedDialect, type StatementListener } from "./statement-log.ts";

export type Db = Kysely<Database>;

export interface DbOptions {
  /** postgres:// URL; when unset the embedded PGlite in `dataDir` is used. */
  databaseUrl?: string;
  /** Folder for the embedded database. */
  dataDir: string;
  /** Pool size for a PostgreSQL server. */
  maxConnections?: number;
  /** Told every statement the handle sends (tests and benches count and replay them). */
  onStatement?: StatementListener;
}

/** Opens a Kysely handle on PostgreSQL (postgres.js) or the embedded PGlite. */
export function createDb(options: DbOptions): Db {
  const logged = (dialect: Dialect) =>
    options.onStatement ? loggedDialect(dialect, options.onStatement) : dialect;
  if (options.databaseUrl) {
    const sql = postgres(options.databaseUrl, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // Money columns are bigint cents: read them as JS numbers (safe below 2^53 cents).
      types: {
        // Repositories write JSON columns as JSON text (PGlite takes text as-is); postgres.js
        // would otherwise encode that text a second time, storing a JSON string.
        json: {
          to: 114,
          from: [114, 3802],
          serialize: (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v)),
          parse: (v: string) => JSON.parse(v),
        },
        bigint: {
          to: 20,
          from: [20],
          serialize: (v: number) => String(v),
          parse: (v: string) => Number(v),
        },
      },
    });
    return new Kysely<Database>({
      dialect: logged(new PostgresJSDialect({ postgres: guardReservedConnections(sql) })),
    });
  }
  mkdirSync(options.dataDir, { recursive: true });
  claimPgliteFolder(options.dataDir);
  const pglite = new PGlite(pgliteFolder(options.dataDir), {
    parsers: { [types.INT8]: (v: string) => Number(v) },
    extensions: PGLITE_EXTENSIONS,
  });
  const db = new Kysely<Database>({ dialect: logged(new PGliteDialect({ pglite })) });
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await destroy();
    releasePgliteFolder(options.dataDir);
  };
  return db;
}

/** Where PGlite keeps its files inside DATA_DIR. */
export function pgliteFolder(dataDir: string): string {
  return join(dataDir, "pglite");
}

/** The admin order search's trigram index (migration 0004); PostgreSQL ships it as contrib. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Errors after which a PostgreSQL connection is gone: closed, or its backend terminated. */
const CONNECTION_LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "57P01", // admin_shutdown: pg_terminate_backend, a fast shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);

function connectionLost(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return CONNECTION_LOST.has(String(code)) || CONNECTION_LOST.has(String(errno));
}

/**
 * postgres.js 3.4 mishandles a reserved connection (Kysely reserves one per transaction) whose
 * backend dies: the next query on it writes to a null socket from setImmediate, a TypeError that
 * escapes every await and ends the process, and releasing it puts the dead connection back among
 * the open ones (porsager/postgres#1154, #1208; unfixed in 3.4.9). So once a query on a reserved
 * connection fails because the connection is gone, later queries on it fail with that error
 * without touching the socket (Kysely's ROLLBACK included: the server already rolled back), and
 * it is not released: the pool has already moved it to its closed connections, to reconnect.
 */
function guardReservedConnections(sql: postgres.Sql): postgres.Sql {
  const reserve = async () => {
    const reserved = await sql.reserve();
    let lost: unknown = null;
    return new Proxy(reserved, {
      get(target, key, receiver) {
        if (key === "release") return () => lost === null && target.release();
        if (key !== "unsafe") return Reflect.get(target, key, receiver);
        return (...args: Parameters<typeof target.unsafe>) => {
          if (lost !== null) return Promise.reject(lost);
          const query = target.unsafe(...args);
          // Kysely's executeQuery passes options; a streamed query (cursor) has none and must not
          // be started here. The app streams nothing.
          if (args.length < 3) return query;
          query.then(undefined, (error) => {
            if (connectionLost(error)) lost = error;
          });
          return query;
        };
      },
    });
  };
  return new Proxy(sql, {
    get: (target, key, receiver) =>
      key === "reserve" ? reserve : Reflect.get(target, key, receiver),
  });
}

/** Raised when another live process has the embedded database open. */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
}

function processAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

const LOCK_FILE = ".topup.lock";

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A lock file with our pid guards the folder; a lock left by a dead process is taken over.
 */
export function claimPgliteFolder(dataDir: string): void {
  const lock = join(dataDir, LOCK_FILE);
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, "utf8"));
    if (pid && pid !== Deno.pid && processAlive(pid)) {
      throw new DatabaseBusyError(
        `The embedded database in ${dataDir} is in use by another process (pid ${pid}). ` +
          "Stop the server first, or run on PostgreSQL with DATABASE_URL.",
      );
    }
  }
  writeFileSync(lock, String(Deno.pid));
}

export function releasePgliteFolder(dataDir: string): void {
  const lock = join(dataDir, LOCK_FILE);
  try {
    if (Number(readFileSync(lock, "utf8")) === Deno.pid) rmSync(lock);
  } catch {
    // Already gone: nothing to release.
  }
}

class StaticMigrationProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(MIGRATIONS);
  }
}

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: new StaticMigrationProvider() });
}

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Undoes the last applied migration with its `down()`; the name undone, null when none was. */
export async function migrateDownOne(db: Db): Promise<string | null> {
  const { error, results } = await migrator(db).migrateDown();
  if (error) throw error;
  return results?.find((r) => r.status === "Success")?.migrationName ?? null;
}

/** A migration the database recorded as applied (Kysely's `kysely_migration`), and when. */
export interface AppliedMigration {
  name: string;
  appliedAt: Date;
}

/** PostgreSQL's "relation does not exist": the database has no migration table. */
const UNDEFINED_TABLE = "42P01";

/**
 * The migrations the database has applied, oldest first; null when it has no migration table at
 * all (a database the app never migrated). One small query: it also proves the database answers.
 */
export async function appliedMigrations(db: Db): Promise<AppliedMigration[] | null> {
  try {
    const { rows } = await sql<{ name: string; timestamp: string | Date }>`
      SELECT name, timestamp FROM kysely_migration ORDER BY name`.execute(db);
    return rows.map((row) => ({ name: row.name, appliedAt: new Date(row.timestamp) }));
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return null;
    throw error;
  }
}

/**
 * Where the database stands against this code: `pending`, the migrations this code knows that it
 * has not applied (all of them when it was never migrated), and `unknown`, those it has applied
 * that this code does not know (a newer version migrated it).
 */
export async function migrationState(
  db: Db,
): Promise<{ migrated: boolean; pending: string[]; unknown: string[] }> {
  const applied = await appliedMigrations(db);
  const names = new Set((applied ?? []).map((m) => m.name));
  return {
    migrated: applied !== null,
    pending: Object.keys(MIGRATIONS).filter((name) => !names.has(name)),
    unknown: [...names].filter((name) => !(name in MIGRATIONS)),
  };
}

/** Any fixed 64-bit number, the same in every instance: the advisory lock's key. */
const BOOTSTRAP_LOCK_KEY = 7_416_843_001;

/**
 * Runs `fn` on one connection that holds a PostgreSQL advisory lock, so app instances starting
 * together on one database bootstrap (first admin, demo data) one after the other: the second
 * finds what the first created instead of creating it again.
 */
export async function withBootstrapLock<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  return await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${BOOTSTRAP_LOCK_KEY})`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(${BOOTSTRAP_LOCK_KEY})`.execute(conn);
    }
  });
}

const DB_KEY = Symbol.for("topup.db");

/**
 * The process-wide handle. Kept on globalThis because the CLI and the built server bundle each
 * carry a copy of this module, and PGlite allows one open instance per data folder.
 */
export function getDb(options: DbOptions): Db {
  const g = globalThis as { [DB_KEY]?: Db };
  g[DB_KEY] ??= createDb(options);
  return g[DB_KEY];
}

/** Closes the process-wide handle, if one is open. */
export async function closeDb(): Promise<void> {
  const g = globalThis as { [DB_KEY]?: Db };
  const db = g[DB_KEY];
  g[DB_KEY] = undefined;
  await db?.destroy();
}
