import { type Kysely, sql } from "kysely";

// Consumer orders whose HitPay payment ended unpaid. Frozen once landed.
// The reconciliation checks those of the last week with HitPay (a later completion of the same
// payment request still pays them), so it walks them by date without reading every order.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX orders_unpaid_payment ON orders (created_at)
    WHERE status IN ('payment-failed', 'payment-cancelled', 'payment-expired')`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX orders_unpaid_payment`.execute(db);
}
