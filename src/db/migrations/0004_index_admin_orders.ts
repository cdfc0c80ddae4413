import { type Kysely, sql } from "kysely";

// The admin Orders screen pages, searches and exports on the server. Frozen once landed.
// - Each tab (reseller or consumer orders) reads newest first by (created_at, id), one page or one
//   keyset batch at a time: one index serves the filter, the sort and the cursor.
// - The search is a case-insensitive substring over the fields spec §5 lists (plus the consumer's
//   name, email and phone on the Consumers tab). `search_text` holds them lower-cased, computed by
//   the database so it cannot drift from the row, and a trigram index answers `LIKE '%…%'`
//   without reading every order. Fields are joined by a newline, which no search box can type,
//   so a search never matches across two fields.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN search_text text GENERATED ALWAYS AS (lower(
    id || E'\n' || game || E'\n' || coalesce(package, '') || E'\n' || user_name || E'\n' ||
    user_id || E'\n' || server_id || E'\n' || status || E'\n' || coalesce(reseller_name, '') ||
    E'\n' || item || E'\n' || coalesce(supplier_order_id, '') || E'\n' ||
    coalesce(consumer_name, '') || E'\n' || coalesce(consumer_email, '') || E'\n' ||
    coalesce(consumer_phone, '')
  )) STORED`.execute(db);
  await sql`CREATE INDEX orders_search_trgm ON orders USING gin (search_text gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX orders_buyer_created_id ON orders (buyer_type, created_at DESC, id DESC)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX orders_buyer_created_id`.execute(db);
  await sql`DROP INDEX orders_search_trgm`.execute(db);
  await db.schema.alterTable("orders").dropColumn("search_text").execute();
}
