import { type Kysely, sql } from "kysely";

// No top-up sent twice. Frozen once landed.
// - supplier_attempts: every create request sent to a supplier, written BEFORE it is sent and
//   given its outcome after. An attempt whose outcome is unknown (no answer, a 5xx, garbage) stays
//   open, and the partial unique index allows one open attempt per order: the insert that would
//   send a second create while the first one's fate is unknown finds the index taken instead.
//   An attempt is closed by the supplier's later word (found by our reference, or not there) or by
//   an admin's decision.
// - orders.review_since / review_reason: the order waits in Admin → Orders → Needs review for an
//   operator (an EliteDias create whose outcome is unknown, a job out of attempts). The order's
//   status does not change, so resellers and consumers keep seeing it pending.
// - jobs.failed_at: a job that used its last attempt; listed for an admin to retry, never run again
//   on its own.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("supplier_attempts")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("supplier", "text", (c) => c.notNull())
    .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("outcome", "text")
    .addColumn("answer", "text")
    .addColumn("finished_at", "timestamptz")
    .execute();
  await sql`CREATE INDEX supplier_attempts_order ON supplier_attempts (order_id, id)`.execute(db);
  await sql`CREATE UNIQUE INDEX supplier_attempts_open ON supplier_attempts (order_id)
    WHERE outcome IS NULL OR outcome = 'uncertain'`.execute(db);
  await db.schema.alterTable("orders").addColumn("review_since", "timestamptz").execute();
  await db.schema.alterTable("orders").addColumn("review_reason", "text").execute();
  await sql`CREATE INDEX orders_review ON orders (review_since) WHERE review_since IS NOT NULL`
    .execute(db);
  await db.schema.alterTable("jobs").addColumn("failed_at", "timestamptz").execute();
  await sql`CREATE INDEX jobs_failed ON jobs (failed_at) WHERE failed_at IS NOT NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_failed`.execute(db);
  await db.schema.alterTable("jobs").dropColumn("failed_at").execute();
  await sql`DROP INDEX orders_review`.execute(db);
  await db.schema.alterTable("orders").dropColumn("review_reason").execute();
  await db.schema.alterTable("orders").dropColumn("review_since").execute();
  await db.schema.dropTable("supplier_attempts").execute();
}
