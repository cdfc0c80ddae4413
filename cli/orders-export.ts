import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Command } from "commander";
import { addDays, isValid, parse } from "date-fns";
import {
  ADMIN_ORDERS_SHEET,
  countOrdersToExport,
  exportOrders,
  type OrderFilter,
  RESELLER_ORDERS_SHEET,
} from "../src/domain/orders/export.ts";
import { findLiveResellerByName } from "../src/domain/resellers/accounts.ts";
import { progressBar, withDb } from "./io.ts";

/** A `--from`/`--to` day, yyyy-MM-dd, as the start of that day in the server's time zone. */
function parseDay(text: string, option: string): Date {
  const day = parse(text, "yyyy-MM-dd", new Date(0));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !isValid(day)) {
    throw new Error(`${option} must be a date such as 2025-01-05, got '${text}'`);
  }
  return day;
}

interface ExportOptions {
  reseller?: string;
  from?: string;
  to?: string;
  out: string;
}

/**
 * `orders export`: every order placed between --from and --to (both days included) with the
 * admin columns, as the admin's Export downloads; with --reseller, one reseller's orders as its
 * own Export button downloads them.
 */
export function registerOrdersExport(ordersCommand: Command): void {
  ordersCommand
    .command("export")
    .description(
      "Write orders, newest first, to an .xlsx file (sheet 'Orders'): all orders with the admin " +
        "columns, or one reseller's with --reseller; a progress bar shows on standard error",
    )
    .option("--from <yyyy-mm-dd>", "first day included (server time zone)")
    .option("--to <yyyy-mm-dd>", "last day included (server time zone)")
    .option("--reseller <name>", "only this reseller's orders, with its Export button's columns")
    .requiredOption("--out <file>", "where to write the .xlsx (replaced only when complete)")
    .action(async (opts: ExportOptions) => {
      const from = opts.from ? parseDay(opts.from, "--from") : undefined;
      const to = opts.to ? addDays(parseDay(opts.to, "--to"), 1) : undefined;
      if (from && to && from >= to) throw new Error("--from must not be after --to");
      // A partial file under the final name would look like a complete export: write beside it
      // and rename only once the workbook is finished.
      const partial = `${opts.out}.partial`;
      const { what, count } = await withDb(async (db) => {
        const reseller = opts.reseller ? await findLiveResellerByName(db, opts.reseller) : null;
        const filter: OrderFilter = reseller
          ? { buyerType: "reseller", resellerId: reseller.id, from, to }
          : { from, to };
        const bar = progressBar(await countOrdersToExport(db, filter));
        const file = createWriteStream(partial);
        const layout = reseller ? RESELLER_ORDERS_SHEET : ADMIN_ORDERS_SHEET;
        try {
          const rows = await exportOrders(db, filter, layout, file, bar.update);
          bar.end();
          return { what: reseller ? `of ${reseller.name}` : "", count: rows };
        } catch (error) {
          bar.end();
          file.destroy();
          await rm(partial, { force: true });
          throw error;
        }
      });
      await rename(partial, opts.out);
      console.log(`Exported ${count} order(s)${what ? ` ${what}` : ""} to ${opts.out}`);
    });
}
