// Backups: one file holding the whole database, and its restore. The embedded PGlite is
// saved with PGlite's own dump of its data folder (a gzipped tarball, dumpDataDir) and restored by
// starting PGlite from it (loadDataDir); PostgreSQL with pg_dump's custom format, restored by
// pg_restore's SQL through psql, both found on PATH. A restore refuses a database that already
// holds tables unless forced and confirmed, and either restores the whole file or changes nothing.

import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  claimPgliteFolder,
  type DbOptions,
  PGLITE_EXTENSIONS,
  pgliteFolder,
  releasePgliteFolder,
} from "./client.ts";

/** A backup or restore that cannot go ahead, with what to do about it. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** Reports a step; `final` lines end a step, the others may overwrite each other. */
export type Progress = (line: string, final?: boolean) => void;

const GZIP_MAGIC = [0x1f, 0x8b];
const PG_DUMP_MAGIC = "PGDMP";

type BackupKind = "pglite" | "postgres";

/** Which backend wrote `file`, from its first bytes; null when neither did. */
async function backupKindOf(file: string): Promise<BackupKind | null> {
  let head: Uint8Array;
  try {
    using handle = await Deno.open(file);
    head = new Uint8Array(5);
    const n = await handle.read(head) ?? 0;
    head = head.subarray(0, n);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new BackupError(`${file}: no such file`);
    throw error;
  }
  if (head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return "pglite";
  if (new TextDecoder().decode(head) === PG_DUMP_MAGIC) return "postgres";
  return null;
}

function sizeOf(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) / 100) / 10;
}

function seconds(since: number): string {
  return `${elapsed(since).toFixed(1)} s`;
}

/** The URL without its password, and the password for PGPASSWORD (never on a command line). */
function splitPassword(databaseUrl: string): { url: string; password: string } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { url: url.toString(), password };
}

/** A client tool's run: each line it writes to stderr goes to `onLine`, error lines are kept. */
function spawnTool(
  tool: "pg_dump" | "pg_restore" | "psql",
  args: string[],
  password: string,
  io: { stdin?: "piped" | "null"; stdout?: "piped" | "null" | "inherit" },
): Deno.ChildProcess {
  try {
    return new Deno.Command(tool, {
      args,
      env: password ? { PGPASSWORD: password } : {},
      stdin: io.stdin ?? "null",
      stdout: io.stdout ?? "inherit",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new BackupError(
        `${tool} is not on PATH: install the PostgreSQL client tools (the server's major version ` +
          "or newer), e.g. apt-get install postgresql-client",
      );
    }
    throw error;
  }
}

/** Reads a tool's stderr line by line; resolves to its error lines (or its last words). */
async function readToolErrors(
  child: Deno.ChildProcess,
  onLine: (line: string) => void = () => {},
): Promise<string> {
  const errors: string[] = [];
  let pending = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stderr) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (/error|fatal|could not/i.test(line)) errors.push(line);
      onLine(line);
    }
  }
  return errors.join("; ") || pending.trim();
}

/** Runs a PostgreSQL client tool to its end; `signal` stops it. */
async function runTool(
  tool: "pg_dump",
  args: string[],
  password: string,
  onLine: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const child = spawnTool(tool, args, password, {});
  const stop = () => child.kill("SIGTERM");
  signal?.addEventListener("abort", stop);
  try {
    const errors = await readToolErrors(child, onLine);
    const { code } = await child.status;
    if (signal?.aborted) throw new BackupError(`${tool} was stopped`);
    if (code !== 0) throw new BackupError(`${tool} failed (exit ${code}): ${errors}`);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/** The table a pg_dump/pg_restore --verbose line is about, if it names one. */
function tableIn(line: string): string | undefined {
  return /(?:contents of table|processing data for table) "?([^"\s]+)"?/.exec(line)?.[1];
}

/** Where a backup is written until it is whole: beside `file`, hidden, this process's own. */
function partialName(file: string): string {
  return join(dirname(file), `.${basename(file)}.partial-${Deno.pid}`);
}

/** How the database a backup or restore works on is named in its messages. */
function nameOf(options: DbOptions): string {
  return options.databaseUrl
    ? `PostgreSQL ${new URL(options.databaseUrl).pathname.slice(1)}`
    : `PGlite in ${options.dataDir}`;
}

/**
 * Writes a backup of the configured database to `file`, readable by its owner only. It is written
 * under a partial name and renamed when whole, so a backup that fails or is stopped (`signal`)
 * leaves an earlier `file` as it was and no partial file behind.
 */
export async function backupDatabase(
  options: DbOptions,
  file: string,
  progress: Progress,
  signal?: AbortSignal,
): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const partial = partialName(file);
  // Created empty and private first: a backup holds every password hash and sealed secret.
  try {
    (await Deno.open(partial, { write: true, createNew: true, mode: 0o600 })).close();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new BackupError(`${dirname(file)}: no such folder to write the backup in`);
    }
    throw error;
  }
  try {
    if (options.databaseUrl) {
      if (await countTables(options) === 0) {
        throw new BackupError(`${nameOf(options)} holds no tables to back up: check DATABASE_URL`);
      }
      const { url, password } = splitPassword(options.databaseUrl);
      progress(`Backing up ${nameOf(options)} with pg_dump -Fc…`, true);
      await runTool(
        "pg_dump",
        ["--format=custom", "--no-owner", "--verbose", `--file=${partial}`, `--dbname=${url}`],
        password,
        (line) => {
          const table = tableIn(line);
          if (table) progress(`  dumping ${table}`);
        },
        signal,
      );
    } else {
      if (!existsSync(pgliteFolder(options.dataDir))) {
        throw new BackupError(`No embedded database in ${options.dataDir} (DATA_DIR) to back up`);
      }
      progress(`Backing up ${nameOf(options)} with its data folder dump…`, true);
      await withPglite(options.dataDir, async (pglite) => {
        const { rows } = await pglite.query<{ n: number }>(TABLES_QUERY);
        if (Number(rows[0].n) === 0) {
          throw new BackupError(`${nameOf(options)} holds no tables to back up`);
        }
        const dump = await pglite.dumpDataDir("gzip");
        await Deno.writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      });
      if (signal?.aborted) throw new BackupError("the backup was stopped");
    }
    await Deno.chmod(partial, 0o600);
    using handle = await Deno.open(partial, { read: true });
    await handle.sync();
    await Deno.rename(partial, file);
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    if (existsSync(file)) {
      throw new BackupError(
        `${error instanceof Error ? error.message : error}; ${file} is unchanged`,
      );
    }
    throw error;
  }
  const { size } = await Deno.stat(file);
  progress(`Backup written: ${file} (${sizeOf(size)}) in ${seconds(started)}`, true);
  return { bytes: size, seconds: elapsed(started) };
}

/** Opens PGlite on `folder`, runs `fn`, closes it; the caller holds DATA_DIR's lock. */
async function openPglite<T>(
  folder: string,
  extra: { loadDataDir?: Blob },
  fn: (pglite: PGlite) => Promise<T>,
): Promise<T> {
  const pglite = new PGlite(folder, { extensions: PGLITE_EXTENSIONS, ...extra });
  try {
    await pglite.waitReady;
    return await fn(pglite);
  } finally {
    await pglite.close().catch(() => {});
  }
}

/** Runs `fn` holding DATA_DIR's lock (no server may have it open meanwhile). */
async function holdingDataDir<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  claimPgliteFolder(dataDir);
  try {
    return await fn();
  } finally {
    releasePgliteFolder(dataDir);
  }
}

/** Runs `fn` with PGlite open on DATA_DIR, holding the folder's lock. */
function withPglite<T>(dataDir: string, fn: (pglite: PGlite) => Promise<T>): Promise<T> {
  return holdingDataDir(dataDir, () => openPglite(pgliteFolder(dataDir), {}, fn));
}

const TABLES_QUERY =
  "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')";

/** The other client sessions on the configured PostgreSQL database (the app, a worker, psql). */
const SESSIONS_QUERY = "SELECT count(*)::int AS n FROM pg_stat_activity " +
  "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'";

/** Runs `queries` on the configured PostgreSQL database, each answering one count. */
async function countOnPostgres(databaseUrl: string, queries: string[]): Promise<number[]> {
  const conn = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const counts: number[] = [];
    for (const query of queries) counts.push(Number((await conn.unsafe(query))[0].n));
    return counts;
  } finally {
    await conn.end();
  }
}

/** How many tables the configured database holds (0: empty, safe to restore into). */
async function countTables(options: DbOptions): Promise<number> {
  if (options.databaseUrl) return (await countOnPostgres(options.databaseUrl, [TABLES_QUERY]))[0];
  if (!existsSync(pgliteFolder(options.dataDir))) return 0;
  return await openPglite(pgliteFolder(options.dataDir), {}, async (pglite) => {
    const { rows } = await pglite.query<{ n: number }>(TABLES_QUERY);
    return Number(rows[0].n);
  });
}

/** How a restore goes ahead. */
export interface RestoreOptions {
  /** Replace a database that holds tables (it must be empty otherwise). */
  force: boolean;
  /**
   * Told, before anything is replaced, how many tables would go; throws to stop (the operator
   * did not confirm). Not called for an empty database.
   */
  confirm: (tables: number) => Promise<void>;
}

/** The message of a restore that failed before it replaced anything. */
function unchanged(file: string, error: unknown): BackupError {
  const why = error instanceof Error ? error.message : String(error);
  return new BackupError(`${file} could not be restored (${why}): nothing was changed`);
}

/**
 * Restores `file` (written by backupDatabase for the same backend) into the configured database,
 * which must be empty unless `force`; then everything in it is replaced, after `confirm`. Either
 * the whole backup is in, or nothing changed: PostgreSQL's restore is one transaction that also
 * drops what the backup does not hold, and PGlite's is loaded into a folder of its own that
 * replaces DATA_DIR's only once it opened.
 */
export async function restoreDatabase(
  options: DbOptions,
  file: string,
  opts: RestoreOptions,
  progress: Progress,
): Promise<{ replaced: boolean; seconds: number }> {
  const started = performance.now();
  const want: BackupKind = options.databaseUrl ? "postgres" : "pglite";
  const kind = await backupKindOf(file);
  if (kind === null) throw new BackupError(`${file} is not a backup written by this app's backup`);
  if (kind !== want) {
    throw new BackupError(
      kind === "pglite"
        ? `${file} is a PGlite backup: restore it without DATABASE_URL (DATA_DIR names the folder)`
        : `${file} is a PostgreSQL dump: restore it with DATABASE_URL set`,
    );
  }
  const restore = options.databaseUrl ? restorePostgres : restorePglite;
  const replaced = await restore(options, file, opts, progress);
  progress(`Restored ${file} in ${seconds(started)}`, true);
  return { replaced, seconds: elapsed(started) };
}

/** Refuses a database that holds tables unless forced, and asks before replacing it. */
async function mayReplace(tables: number, opts: RestoreOptions): Promise<boolean> {
  if (tables === 0) return false;
  if (!opts.force) {
    throw new BackupError(
      `The database is not empty (${tables} tables): restore into an empty database, or pass ` +
        "--force to replace everything in it",
    );
  }
  await opts.confirm(tables);
  return true;
}

/**
 * pg_restore's SQL into psql in one transaction of our own, opened with the schema's drop when
 * replacing and committed only once pg_restore finished whole: a backup cut short, or any
 * statement that fails, rolls everything back.
 */
async function restorePostgres(
  options: DbOptions,
  file: string,
  opts: RestoreOptions,
  progress: Progress,
): Promise<boolean> {
  const databaseUrl = options.databaseUrl!;
  const [tables, sessions] = await countOnPostgres(databaseUrl, [TABLES_QUERY, SESSIONS_QUERY]);
  const replace = await mayReplace(tables, opts);
  if (replace && sessions > 0) {
    throw new BackupError(
      `${sessions} other ${sessions === 1 ? "session uses" : "sessions use"} ` +
        `${nameOf(options)}: stop the app and its workers first (pg_stat_activity lists them)`,
    );
  }
  const { url, password } = splitPassword(databaseUrl);
  progress(`Restoring ${file} into ${nameOf(options)} with pg_restore and psql…`, true);
  const psql = spawnTool(
    "psql",
    ["--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", `--dbname=${url}`],
    password,
    { stdin: "piped", stdout: "null" },
  );
  let restore: Deno.ChildProcess;
  try {
    restore = spawnTool(
      "pg_restore",
      ["--no-owner", "--exit-on-error", "--verbose", "--file=-", file],
      password,
      { stdout: "piped" },
    );
  } catch (error) {
    psql.kill("SIGTERM");
    throw error;
  }
  const restoreErrors = readToolErrors(restore, (line) => {
    const table = tableIn(line);
    if (table) progress(`  restoring ${table}`);
  });
  const psqlErrors = readToolErrors(psql);
  const sql = psql.stdin.getWriter();
  const encoder = new TextEncoder();
  let piped = true;
  try {
    await sql.write(encoder.encode(
      `BEGIN;\n${replace ? "DROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n" : ""}`,
    ));
    for await (const chunk of restore.stdout) await sql.write(chunk);
  } catch {
    // psql stopped at a failed statement: what it says is the reason.
    piped = false;
    restore.kill("SIGTERM");
  }
  const restored = await restore.status;
  try {
    if (piped && restored.code === 0) await sql.write(encoder.encode("COMMIT;\n"));
    await sql.close();
  } catch {
    // psql already ended; its exit code and message tell why.
  }
  const applied = await psql.status;
  if (restored.code !== 0 && piped) {
    throw unchanged(file, await restoreErrors);
  }
  if (applied.code !== 0 || !piped) throw unchanged(file, await psqlErrors);
  return replace;
}

/** PGlite's dump loaded into a folder beside DATA_DIR's, which it replaces once it opened. */
async function restorePglite(
  options: DbOptions,
  file: string,
  opts: RestoreOptions,
  progress: Progress,
): Promise<boolean> {
  return await holdingDataDir(options.dataDir, async () => {
    const folder = pgliteFolder(options.dataDir);
    const replace = await mayReplace(await countTables(options), opts);
    progress(`Restoring ${file} into ${nameOf(options)}…`, true);
    const staging = `${folder}.restoring-${Deno.pid}`;
    rmSync(staging, { recursive: true, force: true });
    try {
      const blob = new Blob([await Deno.readFile(file)]);
      const tables = await openPglite(staging, { loadDataDir: blob }, async (pglite) => {
        const { rows } = await pglite.query<{ n: number }>(TABLES_QUERY);
        return Number(rows[0].n);
      });
      if (tables === 0) throw new Error("it holds no tables");
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw unchanged(file, error);
    }
    const old = `${folder}.replaced-${Deno.pid}`;
    if (existsSync(folder)) renameSync(folder, old);
    renameSync(staging, folder);
    rmSync(old, { recursive: true, force: true });
    return replace;
  });
}
