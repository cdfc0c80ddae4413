import { type Kysely, sql } from "kysely";

// The result page finds an order from the payment request's id that HitPay's redirect carries,
// when it opens in a browser without the order's details (a wallet app handing back to another
// browser). The lookup is anonymous, so it must read one index entry, never scan orders; and a
// payment request belongs to one order. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX orders_payment_reference ON orders (payment_provider, payment_reference)
    WHERE payment_reference IS NOT NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX orders_payment_reference`.execute(db);
}
