// The orders spreadsheets, the reseller's (spec §7 Reseller: Export) and the admin's (spec §9 admin
// columns), with the §9 file name, streamed: rows go from keyset batches through exceljs' streaming
// writer into the output as they are read, so an export of any size holds one batch and the
// compressor's window in memory. A sheet is read as the screens are: dates are date cells in the
// business's time (src/shared/business-time.ts), so they sort and filter as dates, and statuses
// are the words the Orders screens show.

import { once } from "node:events";
import { PassThrough, Readable, type Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { setImmediate } from "node:timers/promises";
import { serverNameOf, serverNamesByGame } from "../catalogue/games.ts";
import ExcelJS from "exceljs";
import type { Db } from "../../db/client.ts";
import { type OrderExportRow, readOrderBatches } from "../../db/repositories/orders-export.ts";
import { countOrders, type OrderFilter } from "../../db/repositories/orders.ts";

/** Which orders an export holds. */
export type { OrderFilter };
import { centsMinusDecimalString, centsToDollars } from "../money.ts";
import { logger } from "../../observability/log.ts";
import { businessWallClock, formatBusinessDate } from "../../shared/business-time.ts";
import { statusLabel } from "../../shared/order-status.ts";

/** The file's name before the date; spec §9 only says "a fixed prefix". */
export const ORDERS_EXPORT_PREFIX = "orders";

/** The sheet's one name (spec §7). */
export const ORDERS_SHEET = "Orders";

/**
 * The Date column's number format: spec §9's 'd MMM yyyy, h:mm a' in a spreadsheet's terms, naming
 * the zone, as a date cell carries none ("5 Jan 2025, 3:04 PM SGT").
 */
export const ORDER_DATE_CELL_FORMAT = 'd mmm yyyy, h:mm AM/PM "SGT"';

const MONEY_FORMAT = "#,##0.00";

/** Uncompressed sheet bytes allowed to wait for the zip compressor before rows pause. */
const MAX_PENDING_SHEET_BYTES = 1024 * 1024;

/** A column of a sheet: header, width and number format. */
interface SheetColumn {
  header: string;
  width: number;
  style?: { numFmt: string };
}

/** What one export writes: its columns, in the spec's order, and each order's cells. */
export interface OrdersSheetLayout {
  columns: readonly SheetColumn[];
  cells: (order: OrderExportRow) => (string | number | Date | null)[];
}

const money = (header: string, width: number): SheetColumn => ({
  header,
  width,
  style: { numFmt: MONEY_FORMAT },
});

const dollars = (cents: number | null) => cents === null ? null : centsToDollars(cents);

/** Spec §7 Reseller: Export. */
export const RESELLER_ORDERS_SHEET: OrdersSheetLayout = {
  columns: [
    { header: "Order ID", width: 26 },
    { header: "Date", width: 26, style: { numFmt: ORDER_DATE_CELL_FORMAT } },
    { header: "Game", width: 22 },
    { header: "Package", width: 18 },
    { header: "User Name", width: 20 },
    { header: "User ID", width: 14 },
    { header: "Server ID", width: 11 },
    { header: "Item", width: 24 },
    money("Amount", 12),
    money("Old Balance", 14),
    money("New Balance", 14),
    { header: "Status", width: 12 },
  ],
  cells: (order) => [
    order.id,
    businessWallClock(order.created_at),
    order.game,
    order.package,
    order.user_name,
    order.user_id,
    order.server_id,
    order.item,
    centsToDollars(order.amount_cents),
    dollars(order.old_balance_cents),
    dollars(order.new_balance_cents),
    statusLabel(order.status),
  ],
};

/** Spec §9: the admin export adds Cost, Profit (amount − cost) and Reseller. */
export const ADMIN_ORDERS_SHEET: OrdersSheetLayout = {
  columns: [
    ...RESELLER_ORDERS_SHEET.columns.slice(0, 9),
    { header: "Cost", width: 12 },
    { header: "Profit", width: 12 },
    { header: "Reseller", width: 20 },
    ...RESELLER_ORDERS_SHEET.columns.slice(9),
  ],
  cells: (order) => {
    const cells = RESELLER_ORDERS_SHEET.cells(order);
    // Costs keep the supplier's precision, so Cost and Profit have no two-decimal format.
    const extra = [
      Number(order.cost),
      Number(centsMinusDecimalString(order.amount_cents, order.cost)),
      order.reseller_name,
    ];
    return [...cells.slice(0, 9), ...extra, ...cells.slice(9)];
  },
};

/** The download's file name, e.g. "orders-2025-01-05.xlsx": the day in Singapore. */
export function ordersExportFileName(date: Date): string {
  return `${ORDERS_EXPORT_PREFIX}-${formatBusinessDate(date, "yyyy-MM-dd")}.xlsx`;
}

/** The parts of exceljs 4's streaming worksheet that show how far the compressor is behind. */
interface SheetStreamInternals {
  stream?: { pipes?: { _writableState?: { length?: number } }[] };
}

/** Sheet XML that exceljs has handed on but the zip compressor has not taken yet. */
function pendingSheetBytes(sheet: ExcelJS.Worksheet): number {
  const pipe = (sheet as unknown as SheetStreamInternals).stream?.pipes?.[0];
  return pipe?._writableState?.length ?? 0;
}

function outputGone(output: Writable): Error {
  return output.errored ?? new Error("the output closed before the export finished");
}

/** Waits until `output` wants more, or is gone (the caller then stops). */
async function drainOrClose(output: Writable): Promise<void> {
  const done = new AbortController();
  const { signal } = done;
  try {
    await Promise.race([once(output, "drain", { signal }), once(output, "close", { signal })]);
  } catch (error) {
    if (!output.destroyed) throw error;
  } finally {
    done.abort();
  }
}

/**
 * Writes batches of orders as the Orders workbook into `output` and resolves with the row count
 * once the file is complete. If `output` is destroyed first (a reader that went away, a disk
 * error), stops reading and rejects with its error.
 */
export async function writeOrdersWorkbook(
  batches: AsyncIterable<OrderExportRow[]>,
  output: Writable,
  onProgress?: (rows: number) => void,
  layout: OrdersSheetLayout = RESELLER_ORDERS_SHEET,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    // Inline strings: shared strings would keep every distinct text in memory until the end.
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(ORDERS_SHEET, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = layout.columns.map((column) => ({ ...column }));
  let count = 0;
  for await (const batch of batches) {
    if (output.destroyed) throw outputGone(output);
    for (const order of batch) {
      sheet.addRow(layout.cells(order)).commit();
      count += 1;
      onProgress?.(count);
    }
    // exceljs hands committed rows to the compressor without waiting, and zlib only advances when
    // the event loop turns, which PGlite's queries never let happen: measured, the whole sheet
    // (about 100 MB per 200,000 rows) queued in memory. So each batch waits for the compressor,
    // then for the reader of `output`.
    while (pendingSheetBytes(sheet) > MAX_PENDING_SHEET_BYTES && !output.destroyed) {
      await setImmediate();
    }
    if (output.writableNeedDrain) await drainOrClose(output);
  }
  if (output.destroyed) throw outputGone(output);
  sheet.commit();
  await Promise.all([workbook.commit(), finished(output)]);
  return count;
}

/** Streams the orders matching `filter`, newest first, as the Orders workbook of `layout`. */
export async function exportOrders(
  db: Db,
  filter: OrderFilter,
  layout: OrdersSheetLayout,
  output: Writable,
  onProgress?: (rows: number) => void,
): Promise<number> {
  // The sheet names a game's server as its list does ("Asia"), not by the supplier's value.
  const names = await serverNamesByGame(db);
  const batches = async function* () {
    for await (const batch of readOrderBatches(db, filter)) {
      yield batch.map((order) => ({ ...order, server_id: serverNameOf(names, order) }));
    }
  };
  return await writeOrdersWorkbook(batches(), output, onProgress, layout);
}

/** Streams one reseller's orders, newest first, as the reseller's Orders workbook. */
export async function exportResellerOrders(
  db: Db,
  resellerId: string,
  output: Writable,
): Promise<number> {
  const filter: OrderFilter = { buyerType: "reseller", resellerId };
  return await exportOrders(db, filter, RESELLER_ORDERS_SHEET, output);
}

/**
 * A workbook as a stream for an HTTP body. Rows are read as the client downloads; a failure
 * part-way is logged and errors the stream, so the download fails visibly instead of ending as a
 * truncated file.
 */
function workbookStream(write: (output: Writable) => Promise<number>): ReadableStream<Uint8Array> {
  const output = new PassThrough();
  write(output).catch((error) => {
    // Only a client that cancelled the download destroys `output` before this handler does.
    if (output.destroyed) return;
    logger().error({ msg: "orders export failed", err: error });
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}

/** One reseller's orders workbook as a stream for an HTTP body. */
export function resellerOrdersWorkbookStream(
  db: Db,
  resellerId: string,
): ReadableStream<Uint8Array> {
  return workbookStream((output) => exportResellerOrders(db, resellerId, output));
}

/** The admin's orders workbook for `filter` as a stream for an HTTP body. */
export function adminOrdersWorkbookStream(
  db: Db,
  filter: OrderFilter,
): ReadableStream<Uint8Array> {
  return workbookStream((output) => exportOrders(db, filter, ADMIN_ORDERS_SHEET, output));
}

/** How many orders an export of `filter` will write (a progress bar's total). */
export async function countOrdersToExport(db: Db, filter: OrderFilter): Promise<number> {
  return await countOrders(db, filter);
}
