import { type Kysely, sql } from "kysely";

// Reseller webhooks. Frozen once landed.
// - One callback URL and one sealed signing secret per reseller (sealed, not hashed: it signs).
// - An event is written in the transaction of the order change it reports (the outbox); its body
//   is fixed then, so every attempt and every resend sends the same bytes and the same event id.
// - Each attempt is a delivery row, listed newest first per reseller.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reseller_webhooks")
    .addColumn(
      "reseller_id",
      "uuid",
      (c) => c.primaryKey().references("resellers.id").onDelete("cascade"),
    )
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn(
      "reseller_id",
      "uuid",
      (c) => c.notNull().references("resellers.id").onDelete("cascade"),
    )
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn(
      "event_id",
      "uuid",
      (c) => c.notNull().references("webhook_events.id").onDelete("cascade"),
    )
    .addColumn("reseller_id", "uuid", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("response_excerpt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Housekeeping deletes events by age; deliveries go with their event (and are counted per event).
  await sql`CREATE INDEX webhook_events_created ON webhook_events (created_at)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_reseller ON webhook_deliveries (reseller_id, at DESC, id DESC)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_events").execute();
  await db.schema.dropTable("reseller_webhooks").execute();
}
