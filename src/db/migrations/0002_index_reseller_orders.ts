import { type Kysely, sql } from "kysely";

// The reseller's order list and export read newest first by (created_at, id): one index serves
// both the sort and the keyset cursor. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_reseller_created_id ON orders (reseller_id, created_at DESC, id DESC)`
    .execute(db);
  await sql`DROP INDEX orders_reseller_created`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_reseller_created ON orders (reseller_id, created_at DESC)`.execute(
    db,
  );
  await sql`DROP INDEX orders_reseller_created_id`.execute(db);
}
