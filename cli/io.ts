import { closeDb, type Db, getDb } from "../src/db/client.ts";
import { dbOptionsOf, getConfig } from "../src/config.ts";
import { getSuppliers, type Suppliers } from "../src/integrations/suppliers.ts";
import { getHitPayClient, type HitPayClient } from "../src/integrations/hitpay/client.ts";

/** Opens the configured database for a command. */
export function openDb(): Db {
  const config = getConfig();
  return getDb(dbOptionsOf(config));
}

/** Runs a command body with the database and closes it after, so the process can exit. */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await fn(openDb());
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
  await Deno.stdout.write(encoder.encode(`${label}: `));
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
    await Deno.stdout.write(encoder.encode("\n"));
  }
  return chars.join("");
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

/** The site's base URL for links in receipts a command queues: PUBLIC_URL, else the app's. */
export function cliSiteUrl(): string {
  return getConfig().publicUrl ?? runningAppUrl();
}

const BAR_WIDTH = 30;

/**
 * A progress bar on standard error for `total` steps: redrawn in place on a terminal, and one line
 * per tenth otherwise (logs, pipes), so a long command shows it is moving either way.
 */
export function progressBar(total: number): { update: (done: number) => void; end: () => void } {
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
