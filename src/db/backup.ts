// Backups (issue 24): one file holding the whole database, and its restore. The embedded PGlite is
// saved with PGlite's own dump of its data folder (a gzipped tarball, dumpDataDir) and restored by
// starting PGlite from it (loadDataDir); PostgreSQL with pg_dump's custom format and pg_restore,
// found on PATH. A restore refuses a database that already holds tables unless forced.

import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { existsSync, mkdirSync, rmSync } from "node:fs";
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

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** The URL without its password, and the password for PGPASSWORD (never on a command line). */
function splitPassword(databaseUrl: string): { url: string; password: string } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { url: url.toString(), password };
}

/** Runs a PostgreSQL client tool, passing each line it writes to stderr to `onLine`. */
async function runTool(
  tool: "pg_dump" | "pg_restore",
  args: string[],
  password: string,
  onLine: (line: string) => void,
): Promise<void> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(tool, {
      args,
      env: password ? { PGPASSWORD: password } : {},
      stdin: "null",
      stdout: "inherit",
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
  const { code } = await child.status;
  if (code !== 0) {
    throw new BackupError(`${tool} failed (exit ${code}): ${errors.join("; ") || pending}`);
  }
}

/** The table a pg_dump/pg_restore --verbose line is about, if it names one. */
function tableIn(line: string): string | undefined {
  return /(?:contents of table|processing data for table) "?([^"\s]+)"?/.exec(line)?.[1];
}

/** Writes a backup of the configured database to `file`. */
export async function backupDatabase(
  options: DbOptions,
  file: string,
  progress: Progress,
): Promise<{ bytes: number }> {
  const started = performance.now();
  if (options.databaseUrl) {
    const { url, password } = splitPassword(options.databaseUrl);
    progress(`Backing up PostgreSQL ${new URL(url).pathname.slice(1)} with pg_dump -Fc…`, true);
    await runTool(
      "pg_dump",
      ["--format=custom", "--no-owner", "--verbose", `--file=${file}`, `--dbname=${url}`],
      password,
      (line) => {
        const table = tableIn(line);
        if (table) progress(`  dumping ${table}`);
      },
    );
  } else {
    const folder = pgliteFolder(options.dataDir);
    if (!existsSync(folder)) {
      throw new BackupError(`No embedded database in ${options.dataDir} (DATA_DIR) to back up`);
    }
    progress(`Backing up PGlite in ${options.dataDir} with its data folder dump…`, true);
    await withPglite(options.dataDir, {}, async (pglite) => {
      const dump = await pglite.dumpDataDir("gzip");
      await Deno.writeFile(file, new Uint8Array(await dump.arrayBuffer()));
    });
  }
  const { size } = await Deno.stat(file);
  progress(`Backup written: ${file} (${sizeOf(size)}) in ${seconds(started)}`, true);
  return { bytes: size };
}

/** Runs `fn` with PGlite open on DATA_DIR, holding the folder's lock (no server may have it). */
async function withPglite<T>(
  dataDir: string,
  extra: { loadDataDir?: Blob },
  fn: (pglite: PGlite) => Promise<T>,
): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  claimPgliteFolder(dataDir);
  try {
    const pglite = new PGlite(pgliteFolder(dataDir), { extensions: PGLITE_EXTENSIONS, ...extra });
    try {
      await pglite.waitReady;
      return await fn(pglite);
    } finally {
      await pglite.close();
    }
  } finally {
    releasePgliteFolder(dataDir);
  }
}

const TABLES_QUERY =
  "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')";

/** How many tables the configured database holds (0: empty, safe to restore into). */
async function countTables(options: DbOptions): Promise<number> {
  if (options.databaseUrl) {
    const conn = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await conn.unsafe(TABLES_QUERY);
      return Number(row.n);
    } finally {
      await conn.end();
    }
  }
  if (!existsSync(pgliteFolder(options.dataDir))) return 0;
  return await withPglite(options.dataDir, {}, async (pglite) => {
    const { rows } = await pglite.query<{ n: number }>(TABLES_QUERY);
    return Number(rows[0].n);
  });
}

/**
 * Restores `file` (written by backupDatabase for the same backend) into the configured database,
 * which must be empty unless `force` (then what it holds is replaced).
 */
export async function restoreDatabase(
  options: DbOptions,
  file: string,
  opts: { force: boolean },
  progress: Progress,
): Promise<void> {
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
  const tables = await countTables(options);
  if (tables > 0 && !opts.force) {
    throw new BackupError(
      `The database is not empty (${tables} tables): restore into an empty database, or pass ` +
        "--force to replace everything in it",
    );
  }
  if (options.databaseUrl) {
    const { url, password } = splitPassword(options.databaseUrl);
    progress(
      `Restoring ${file} into PostgreSQL ${new URL(url).pathname.slice(1)} with pg_restore…`,
      true,
    );
    await runTool(
      "pg_restore",
      [
        "--no-owner",
        "--exit-on-error",
        "--single-transaction",
        "--verbose",
        ...(tables > 0 ? ["--clean", "--if-exists"] : []),
        `--dbname=${url}`,
        file,
      ],
      password,
      (line) => {
        const table = tableIn(line);
        if (table) progress(`  restoring ${table}`);
      },
    );
  } else {
    progress(`Restoring ${file} into PGlite in ${options.dataDir}…`, true);
    // PGlite loads a tarball only into a new folder: an empty one (or, forced, a full one) goes.
    rmSync(pgliteFolder(options.dataDir), { recursive: true, force: true });
    const blob = new Blob([await Deno.readFile(file)]);
    await withPglite(options.dataDir, { loadDataDir: blob }, async (pglite) => {
      await pglite.query("SELECT 1");
    });
  }
  progress(`Restored ${file} in ${seconds(started)}`, true);
}
