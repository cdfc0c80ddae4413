import { sql } from "kysely";
import type { Db } from "../client.ts";
import type { OrderRow } from "../schema.ts";
import { type OrderFilter, whereOrderFilter } from "./orders.ts";

/** The order columns the exports write (spec §7 Reseller: Export; §9 the admin columns). */
export const ORDER_EXPORT_COLUMNS = [
  "id",
  "created_at",
  "game_id",
  "game",
  "package",
  "user_name",
  "user_id",
  "server_id",
  "item",
  "amount_cents",
  "cost",
  "reseller_name",
  "old_balance_cents",
  "new_balance_cents",
  "status",
] as const;

export type OrderExportRow = Pick<OrderRow, (typeof ORDER_EXPORT_COLUMNS)[number]>;

/** Rows per query: one batch is all the export ever holds in memory. */
export const ORDER_EXPORT_BATCH = 1000;

/**
 * The orders matching `filter` (a reseller's own, an admin tab and search, a date range), newest
 * first, in batches read by keyset on (created_at, id): each query starts where the last one
 * stopped, so memory and per-query cost stay flat however many orders there are, and no
 * connection or transaction is held between batches.
 */
export async function* readOrderBatches(
  db: Db,
  filter: OrderFilter,
  batchSize = ORDER_EXPORT_BATCH,
): AsyncGenerator<OrderExportRow[]> {
  // The cursor keeps created_at as the database's text: a JS Date has milliseconds only, and
  // rows differing in microseconds would be skipped by a cursor truncated to milliseconds.
  let after: { at: string; id: string } | null = null;
  while (true) {
    const cursor = after;
    const rows = await db.transaction().execute(async (trx) => {
      // A page must walk a (…, created_at, id) index from the cursor and stop after batchSize
      // rows. Without table statistics (PGlite runs no autovacuum) the planner prefers a bitmap
      // scan that reads and sorts every older order on each page, quadratic over an export
      // (100,000 orders: about 100 ms a page instead of 3 ms). SET LOCAL ends with this
      // transaction. A search keeps bitmap scans: the trigram index answers only through them.
      if (!filter.search) await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      let query = whereOrderFilter(
        trx.selectFrom("orders")
          .select(ORDER_EXPORT_COLUMNS)
          .select(sql<string>`created_at::text`.as("cursor_at")),
        filter,
      );
      if (cursor !== null) {
        // The plain bound gives the index scan its start; the row comparison breaks ties by id.
        query = query
          .where("created_at", "<=", sql<Date>`${cursor.at}::timestamptz`)
          .where(sql<boolean>`(created_at, id) < (${cursor.at}::timestamptz, ${cursor.id})`);
      }
      return await query.orderBy("created_at", "desc").orderBy("id", "desc")
        .limit(batchSize).execute();
    });
    if (rows.length === 0) return;
    const last = rows[rows.length - 1];
    after = { at: last.cursor_at, id: last.id };
    yield rows.map(({ cursor_at: _cursor, ...row }) => row);
    if (rows.length < batchSize) return;
  }
}
