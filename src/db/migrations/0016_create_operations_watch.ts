import { type Kysely, sql } from "kysely";

// Supplier balances and operator alerts. Frozen once landed.
// - supplier_balance_readings: each reading of a supplier's prepaid balance, for the dashboard's
//   trend and the operations screen.
// - alert_conditions: when each alert condition (a supplier's low balance, a reseller's failing
//   webhooks, …) last sent its email; an alert is sent only by the statement that moves this time
//   forward by at least an hour, so several instances checking at once send it once.
// - alerts: every alert sent, for the operations screen.
// - one pending `operations.watch` job at a time, however many instances schedule it.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("supplier_balance_readings")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("vendor", "text", (c) => c.notNull())
    .addColumn("balance_cents", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("read_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX supplier_balance_readings_vendor
    ON supplier_balance_readings (vendor, read_at DESC, id DESC)`.execute(db);
  await db.schema
    .createTable("alert_conditions")
    .addColumn("condition", "text", (c) => c.primaryKey())
    .addColumn("last_sent_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("alerts")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("condition", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull())
    .addColumn("sent_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX alerts_sent_at ON alerts (sent_at DESC, id DESC)`.execute(db);
  await sql`CREATE UNIQUE INDEX jobs_one_pending_watch ON jobs (kind)
    WHERE kind = 'operations.watch' AND done_at IS NULL AND failed_at IS NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_one_pending_watch`.execute(db);
  await db.schema.dropTable("alerts").execute();
  await db.schema.dropTable("alert_conditions").execute();
  await db.schema.dropTable("supplier_balance_readings").execute();
}
