import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Command } from "commander";
import { findResellersByNameInsensitive } from "../src/db/repositories/resellers.ts";
import { exportResellerOrders } from "../src/domain/order-export.ts";
import { withDb } from "./io.ts";

const PROGRESS_EVERY = 10_000;

/** `orders export`: one reseller's orders as the .xlsx the reseller's Export button downloads. */
export function registerOrdersExport(ordersCommand: Command): void {
  ordersCommand
    .command("export")
    .description("Write a reseller's orders, newest first, to an .xlsx file (sheet 'Orders')")
    .requiredOption("--reseller <name>", "the reseller's name (case-insensitive)")
    .requiredOption("--out <file>", "where to write the .xlsx (replaced only when complete)")
    .action(async (opts: { reseller: string; out: string }) => {
      // A partial file under the final name would look like a complete export: write beside it
      // and rename only once the workbook is finished.
      const partial = `${opts.out}.partial`;
      const { name, count } = await withDb(async (db) => {
        const matches = await findResellersByNameInsensitive(db, opts.reseller);
        if (matches.length === 0) throw new Error(`No reseller named '${opts.reseller}'`);
        if (matches.length > 1) {
          const names = matches.map((m) => `'${m.name}'`).join(", ");
          throw new Error(`'${opts.reseller}' matches several resellers (${names}); be exact`);
        }
        const file = createWriteStream(partial);
        try {
          const rows = await exportResellerOrders(db, matches[0].id, file, (done) => {
            if (done % PROGRESS_EVERY === 0) console.error(`${done.toLocaleString("en-US")} rows`);
          });
          return { name: matches[0].name, count: rows };
        } catch (error) {
          file.destroy();
          await rm(partial, { force: true });
          throw error;
        }
      });
      await rename(partial, opts.out);
      console.log(`Exported ${count} order(s) of ${name} to ${opts.out}`);
    });
}
