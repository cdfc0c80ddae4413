import { type Kysely, sql } from "kysely";

// No top-up sent twice, also in the moment between a create's answer and its order's update
// (a refresh can read the order as not yet sent just after the job has recorded the supplier's
// acceptance, and would send it again). Migration 0010
// allowed a new attempt once the earlier one was closed, whatever closed it; now only an attempt
// that proved the supplier does not hold the order ('failed', 'not at supplier', an operator's
// 'not at supplier (operator)') makes way for another. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX supplier_attempts_live ON supplier_attempts (order_id)
    WHERE outcome IS NULL
      OR outcome NOT IN ('failed', 'not at supplier', 'not at supplier (operator)')`.execute(db);
  await sql`DROP INDEX supplier_attempts_open`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX supplier_attempts_open ON supplier_attempts (order_id)
    WHERE outcome IS NULL OR outcome = 'uncertain'`.execute(db);
  await sql`DROP INDEX supplier_attempts_live`.execute(db);
}
