import { existsSync } from "node:fs";
import {
  closeDb,
  type Db,
  type DbOptions,
  getDb,
  migrationState,
  pgliteFolder,
} from "../src/db/client.ts";
import { dbOptionsOf, getConfig, resolvePublicOrigin } from "../src/config.ts";
import { getSuppliers, type Suppliers } from "../src/integrations/suppliers.ts";
import { getHitPayClient, type HitPayClient } from "../src/integrations/hitpay/client.ts";

let quiet = false;

/**
 * `--quiet`: what only tells that all went well (the database line, progress, a summary) is not
 * printed, and the log keeps warnings and errors, so cron mails only when a person is needed.
 */
export function setQuiet(value: boolean): void {
  quiet = value;
  if (value) Deno.env.set("LOG_LEVEL", "warn");
}

/** Whether --quiet was given. */
export function isQuiet(): boolean {
  return quiet;
}

/** A summary of what went well, on stdout, unless --quiet. */
export function report(line: string): void {
  if (!quiet) console.log(line);
}

/** A note beside the answer (which database, progress), on stderr, unless --quiet. */
export function note(line: string): void {
  if (!quiet) console.error(line);
}

/** The database a command was pointed at, as an operator names it. */
export function databaseName(options: DbOptions): string {
  if (!options.databaseUrl) return `PGlite in ${options.dataDir}`;
  const url = new URL(options.databaseUrl);
  const user = url.username ? ` as ${decodeURIComponent(url.username)}` : "";
  return `PostgreSQL ${url.pathname.slice(1)} on ${url.host}${user}`;
}

/** How a command may treat its database. */
export interface DatabaseUse {
  /** It may create the embedded database when none exists (serve, migrate, seed, restore). */
  mayCreate?: boolean;
  /** It creates the app's tables itself, so a database without them is fine. */
  migrates?: boolean;
}

/**
 * The configured database for a command, named on stderr. Without DATABASE_URL a command would
 * otherwise create an empty embedded database in ./data wherever it runs (cron's home folder) and
 * answer from it; only the commands that set a database up may.
 */
export function cliDatabase({ mayCreate = false }: DatabaseUse = {}): DbOptions {
  const options = dbOptionsOf(getConfig());
  if (!options.databaseUrl && !mayCreate && !existsSync(pgliteFolder(options.dataDir))) {
    throw new Error(
      `No database: DATABASE_URL is not set and there is no embedded database in ` +
        `${options.dataDir} (DATA_DIR); set DATABASE_URL (for cron, in its environment file), ` +
        "or create a local one with `migrate`",
    );
  }
  note(`Database: ${databaseName(options)}`);
  return options;
}

/** Opens the configured database for a command. */
export function openDb(use: DatabaseUse = {}): Db {
  return getDb(cliDatabase(use));
}

/**
 * Refuses a database without the app's tables (the wrong DATABASE_URL, or an empty one), which
 * would otherwise fail with a missing relation; warns on one that does not match this version.
 */
export async function checkAppTables(db: Db, name: string): Promise<void> {
  const { migrated, pending, unknown } = await migrationState(db);
  if (!migrated) {
    throw new Error(
      `${name} has none of the app's tables: check DATABASE_URL, or create them with \`migrate\``,
    );
  }
  if (pending.length) {
    console.error(
      `Warning: ${name} lacks ${pending.length} migration(s) this version needs: run \`migrate\``,
    );
  }
  if (unknown.length) {
    console.error(
      `Warning: ${name} was migrated by a newer version (${unknown.join(", ")}): run that version`,
    );
  }
}

/**
 * Runs a command body with the database (and its name, for messages) and closes it after, so the
 * process can exit. The database must hold the app's tables unless the command `migrates`.
 */
export async function withDb<T>(
  fn: (db: Db, name: string) => Promise<T>,
  use: DatabaseUse = {},
): Promise<T> {
  const options = cliDatabase(use);
  const name = databaseName(options);
  try {
    const db = getDb(options);
    if (!use.migrates && !use.mayCreate) await checkAppTables(db, name);
    return await fn(db, name);
  } finally {
    await closeDb();
  }
}

/** Prints data as JSON or as `key: value` lines. */
export function printData(data: Record<string, unknown>, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(data, null, 2));
    return;
  }
  for (const [k, v] of Object.entries(data)) {
    console.log(`${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
}

/**
 * Reads a password: from standard input when it is piped (scripts), otherwise prompted on the
 * terminal without echo.
 */
export async function readPassword(label = "Password"): Promise<string> {
  if (!Deno.stdin.isTerminal()) {
    const text = await new Response(Deno.stdin.readable).text();
    return text.replace(/\r?\n$/, "");
  }
  const encoder = new TextEncoder();
  // The prompt goes to stderr: stdout is the command's answer (--json), which a script reads.
  await Deno.stderr.write(encoder.encode(`${label}: `));
  Deno.stdin.setRaw(true);
  const chars: string[] = [];
  const buf = new Uint8Array(1);
  try {
    while (true) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      const c = buf[0];
      if (c === 3) throw new Error("Cancelled");
      if (c === 13 || c === 10) break;
      if (c === 127 || c === 8) chars.pop();
      else chars.push(String.fromCharCode(c));
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(encoder.encode("\n"));
  }
  return chars.join("");
}

/** Reads the line the operator types on the terminal (echoed), after `prompt` on stderr. */
async function askLine(prompt: string): Promise<string> {
  await Deno.stderr.write(new TextEncoder().encode(prompt));
  const decoder = new TextDecoder();
  const buf = new Uint8Array(256);
  let line = "";
  while (!line.includes("\n")) {
    const n = await Deno.stdin.read(buf);
    if (n === null) break;
    line += decoder.decode(buf.subarray(0, n), { stream: true });
  }
  return line.split("\n")[0].trim();
}

/**
 * Confirms an action that replaces or drops data, described by `what`: `--yes` confirms; on a
 * terminal the operator types `answer`; with no terminal (cron, a pipe) it is refused, so a
 * command pasted in a hurry or scheduled by mistake loses nothing.
 */
export async function confirmOrRefuse(
  what: string,
  answer: string,
  yes: boolean | undefined,
): Promise<void> {
  if (yes) return;
  if (!Deno.stdin.isTerminal()) {
    throw new Error(`${what}: pass --yes to confirm (no terminal to ask on)`);
  }
  const typed = await askLine(`${what}.\nType ${answer} to go on, anything else to stop: `);
  if (typed !== answer) throw new Error("Not confirmed: nothing was changed");
}

/**
 * The running app's base URL. In simulator mode the simulators live inside the running app, so
 * the CLI talks to them there (TOPUP_INTERNAL_URL, else this machine's PORT).
 */
function runningAppUrl(): string {
  if (!Deno.env.get("TOPUP_INTERNAL_URL")) {
    Deno.env.set("TOPUP_INTERNAL_URL", `http://127.0.0.1:${getConfig().port || 8000}`);
  }
  return Deno.env.get("TOPUP_INTERNAL_URL")!;
}

/** The supplier clients for a command (the simulators of the running app in simulator mode). */
export function cliSuppliers(): Suppliers {
  runningAppUrl();
  return getSuppliers(getConfig());
}

/** The HitPay client for a command (the simulator of the running app in simulator mode). */
export function cliHitPay(): HitPayClient {
  runningAppUrl();
  return getHitPayClient(getConfig());
}

/** Resolves the site's base URL for links in what a command queues: PUBLIC_URL, else the app's. */
export function resolveCliOrigin(): void {
  resolvePublicOrigin(getConfig(), runningAppUrl());
}

const BAR_WIDTH = 30;

/**
 * A progress bar on standard error for `total` steps: redrawn in place on a terminal, and one line
 * per tenth otherwise (logs, pipes), so a long command shows it is moving either way.
 */
export function progressBar(total: number): { update: (done: number) => void; end: () => void } {
  if (quiet) return { update() {}, end() {} };
  const terminal = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  let lastShown = -1;
  const line = (done: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(share * BAR_WIDTH);
    return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${
      done.toLocaleString("en-US")
    }/${total.toLocaleString("en-US")}`;
  };
  return {
    update(done) {
      const step = terminal ? Math.floor((done / Math.max(total, 1)) * 1000) : Math.floor(
        (done / Math.max(total, 1)) * 10,
      );
      if (step === lastShown) return;
      lastShown = step;
      if (terminal) Deno.stderr.writeSync(encoder.encode(`\r${line(done)}`));
      else console.error(line(done));
    },
    end() {
      if (terminal) Deno.stderr.writeSync(encoder.encode("\n"));
    },
  };
}
