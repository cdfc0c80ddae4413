import { type Kysely, sql } from "kysely";

// Automatic refunds of HitPay payments. Frozen once landed.
// - orders.payment_id: the HitPay payment that paid the order (the refund API names a payment,
//   never its payment request), stored when the order is paid or paid too late.
// - refunds: one full refund per order (the unique index on order_id), whoever asks and however
//   often: the system after a definitive failure or a late payment, an admin from Needs review.
//   `sends` counts the refund requests that went out to HitPay and `sent_at` the last one, so a
//   job finding a request out (or whose answer was lost) asks HitPay about the payment before it
//   sends another; a HitPay refund id belongs to one row.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("payment_id", "text").execute();
  await db.schema
    .createTable("refunds")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("payment_id", "text")
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("requested"))
    .addColumn("hitpay_refund_id", "text")
    .addColumn("hitpay_status", "text")
    .addColumn("error", "text")
    .addColumn("sends", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sent_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("refunds_amount_positive", sql`amount_cents > 0`)
    .addCheckConstraint(
      "refunds_status",
      sql`status IN ('requested', 'sending', 'pending', 'succeeded', 'refused')`,
    )
    .execute();
  await sql`CREATE UNIQUE INDEX refunds_order ON refunds (order_id)`.execute(db);
  await sql`CREATE UNIQUE INDEX refunds_hitpay_refund ON refunds (hitpay_refund_id)
    WHERE hitpay_refund_id IS NOT NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("refunds").execute();
  await db.schema.alterTable("orders").dropColumn("payment_id").execute();
}
