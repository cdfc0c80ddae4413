import { type Kysely, sql } from "kysely";

// Consumer payments. Frozen once landed.
// - One consumer per billing email (case-insensitive) among those not deleted, so a returning
//   buyer is the same row the admin Consumers list shows.
// - Each payment event keeps what it did to which order: refused ones (amount, currency or
//   reference mismatch) are evidence for operators, not silently dropped.
// - Reconciliation walks the orders still waiting for a payment, oldest first.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX consumers_email_live ON consumers (lower(email))
    WHERE deleted_at IS NULL`.execute(db);
  await sql`DROP INDEX consumers_email`.execute(db);
  await db.schema.alterTable("payment_events").addColumn("order_id", "text").execute();
  await db.schema.alterTable("payment_events").addColumn("outcome", "text").execute();
  await sql`CREATE INDEX payment_events_order ON payment_events (order_id, received_at)`
    .execute(db);
  await sql`CREATE INDEX orders_awaiting_payment ON orders (created_at)
    WHERE status = 'pending-customer-payment'`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX orders_awaiting_payment`.execute(db);
  await sql`DROP INDEX payment_events_order`.execute(db);
  await db.schema.alterTable("payment_events").dropColumn("outcome").execute();
  await db.schema.alterTable("payment_events").dropColumn("order_id").execute();
  await sql`CREATE INDEX consumers_email ON consumers (lower(email))`.execute(db);
  await sql`DROP INDEX consumers_email_live`.execute(db);
}
