// Orders export benchmark: a fresh PGlite database with N reseller orders (default 100,000),
// exported through the same streaming path as GET /api/reseller/{id}/orders/export into a file.
// Reports the time taken and the resident memory peak against the resident memory before.
//
//   node_modules/.bin/deno run -A bench/export_bench.ts [orders] [--heap-mb N] [--admin]
//
// --admin exports the admin way instead (GET /api/orders/export: the Resellers tab with the spec
// §9 admin columns), then times GET /api/orders' domain call on the same database: the first
// page, a deep page and two searches.
//
// --heap-mb caps the export process's JavaScript heap (V8 max-old-space-size): an export that
// kept rows or sheet XML in memory would run out of heap; a streamed one finishes.
//
// Loading 100,000 rows grows PGlite's WebAssembly heap by hundreds of MiB, and that heap never
// shrinks, so it would hide whatever the export itself uses. The export therefore runs in a fresh
// child process (this file with --child export) that opens the loaded database and measures from
// there; a second child only reads the orders, to show how much of the growth is PGlite's cache.

import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { createDb, migrateToLatest } from "../src/db/client.ts";
import type { NewOrder } from "../src/db/schema.ts";
import { createReseller } from "../src/domain/auth/users.ts";
import {
  ADMIN_ORDERS_SHEET,
  exportOrders,
  exportResellerOrders,
} from "../src/domain/orders/export.ts";
import { listAdminOrders } from "../src/domain/orders/admin-orders.ts";
import { refreshOrderStatistics } from "../src/domain/housekeeping.ts";
import { readOrderBatches } from "../src/db/repositories/orders-export.ts";

const INSERT_BATCH = 1_000;
const SAMPLE_MS = 10;
const MIB = 1024 * 1024;

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(0)} MiB`;
}

/** Fills a new database with `count` orders of one reseller; returns the reseller id. */
async function load(dataDir: string, count: number): Promise<string> {
  const db = createDb({ dataDir });
  try {
    await migrateToLatest(db);
    const reseller = await createReseller(db, {
      name: "Bench Reseller",
      email: "bench@bench.example",
      password: "bench-password",
      balanceCents: 0,
      markup: {},
      twoFAEnabled: false,
      createdBy: "bench",
    });
    const start = Date.parse("2025-01-01T00:00:00Z");
    for (let from = 0; from < count; from += INSERT_BATCH) {
      const rows: NewOrder[] = [];
      for (let i = from; i < Math.min(from + INSERT_BATCH, count); i++) {
        rows.push({
          id: `BENCH-${String(i).padStart(7, "0")}`,
          buyer_type: "reseller",
          status: i % 10 ? "successful" : "error",
          reseller_id: reseller._id,
          reseller_name: reseller.name,
          old_balance_cents: 100_000_000 - i * 152,
          new_balance_cents: 100_000_000 - (i + 1) * 152,
          game: "Mobile Legends",
          package: "mlbb",
          item: "86 Diamonds",
          denom: "86",
          user_id: String(10_000_000 + i),
          server_id: String(1000 + (i % 500)),
          user_name: `Player ${i}`,
          amount_cents: 152,
          cost: "1.40",
          supplier: "elephant",
          // Three orders a second, as a busy reseller places them: ties for the keyset.
          created_at: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
        });
      }
      await db.insertInto("orders").values(rows).execute();
    }
    // What a running server does at start and hourly (PGlite has no autovacuum).
    await refreshOrderStatistics(db);
    return reseller._id;
  } finally {
    await db.destroy();
  }
}

interface Usage {
  rss: number;
  heapUsed: number;
}

/** Runs `work`, sampling memory every SAMPLE_MS and once at the end; returns before and peak. */
async function measure(work: () => Promise<void>): Promise<{ before: Usage; peak: Usage }> {
  const { rss, heapUsed } = Deno.memoryUsage();
  const before = { rss, heapUsed };
  const peak = { ...before };
  const sample = () => {
    const usage = Deno.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
    sample();
  }
  return { before, peak };
}

/**
 * The child: in a fresh process, either only reads the orders (what PGlite's page cache alone
 * adds to this process) or exports them, and prints its figures.
 */
async function runChild(mode: string, dataDir: string, resellerId: string): Promise<void> {
  const db = createDb({ dataDir });
  try {
    // Open the database and warm it up before the baseline, as a running server would be.
    await sql`SELECT count(*) FROM orders`.execute(db);
    if (mode === "read") {
      const started = performance.now();
      const { before, peak } = await measure(async () => {
        for await (const _batch of readOrderBatches(db, { buyerType: "reseller", resellerId })) {
          continue;
        }
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `read only:         ${seconds.toFixed(2)} s, RSS +${
          mib(peak.rss - before.rss)
        } (PGlite cache)`,
      );
      return;
    }
    const out = join(dataDir, "..", "orders.xlsx");
    let rows = 0;
    const started = performance.now();
    const { before, peak } = await measure(async () => {
      rows = mode === "export-admin"
        ? await exportOrders(
          db,
          { buyerType: "reseller" },
          ADMIN_ORDERS_SHEET,
          createWriteStream(out),
        )
        : await exportResellerOrders(db, resellerId, createWriteStream(out));
    });
    const seconds = (performance.now() - started) / 1000;
    const size = (await Deno.stat(out)).size;
    console.log(`orders exported:   ${rows.toLocaleString("en-US")} rows`);
    console.log(
      `export time:       ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} rows/s)`,
    );
    console.log(`file size:         ${(size / MIB).toFixed(1)} MiB`);
    console.log(`RSS before export: ${mib(before.rss)}`);
    console.log(`RSS peak:          ${mib(peak.rss)} (sampled every ${SAMPLE_MS} ms)`);
    console.log(`RSS growth:        ${mib(peak.rss - before.rss)}`);
    console.log(`JS heap used:      ${mib(before.heapUsed)} before, ${mib(peak.heapUsed)} peak`);
    if (mode === "export-admin") await timeAdminList(db);
  } finally {
    await db.destroy();
  }
}

/** Times GET /api/orders' domain call: median and worst of RUNS calls of each query. */
async function timeAdminList(db: ReturnType<typeof createDb>): Promise<void> {
  const RUNS = 7;
  const queries = [
    { label: "page 1", search: "", page: 1 },
    { label: "page 2,000", search: "", page: 2_000 },
    { label: "search 'player 4242'", search: "player 4242", page: 1 },
    { label: "search 'bench-00999'", search: "bench-00999", page: 1 },
  ];
  for (const query of queries) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      total = (await listAdminOrders(db, { buyerType: "reseller", ...query })).total;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `GET /api/orders ${query.label}: median ${times[RUNS >> 1].toFixed(1)} ms, worst ${
        times[RUNS - 1].toFixed(1)
      } ms (${total.toLocaleString("en-US")} match)`,
    );
  }
}

/** Runs this file as a child process in `mode`; exits with its code if it fails. */
async function spawnChild(mode: string, v8Flags: string[], dataDir: string, resellerId: string) {
  const script = new URL(import.meta.url).pathname;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...v8Flags, script, "--child", mode, dataDir, resellerId],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) Deno.exit(code);
}

if (Deno.args[0] === "--child") {
  await runChild(Deno.args[1], Deno.args[2], Deno.args[3]);
} else {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { "heap-mb": { type: "string" }, admin: { type: "boolean" } },
    allowPositionals: true,
  });
  const heapMb = values["heap-mb"];
  const v8Flags = heapMb === undefined ? [] : [`--v8-flags=--max-old-space-size=${heapMb}`];
  const count = Number(positionals[0] ?? 100_000);
  const dir = await Deno.makeTempDir({ prefix: "topup-export-bench-" });
  try {
    const dataDir = join(dir, "db");
    const loadStarted = performance.now();
    const resellerId = await load(dataDir, count);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    console.log(
      `orders inserted:   ${count.toLocaleString("en-US")} in ${loadSeconds.toFixed(1)} s`,
    );
    await spawnChild(values.admin ? "export-admin" : "export", v8Flags, dataDir, resellerId);
    await spawnChild("read", v8Flags, dataDir, resellerId);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
