import type { Transaction } from "kysely";
import { sql } from "kysely";
import type { Database } from "../schema.ts";

/**
 * Debits a reseller in one conditional statement: no row back means the balance does not cover
 * the amount (never read, check in JS, then write).
 */
export async function debitReseller(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
): Promise<{ oldCents: number; newCents: number } | null> {
  const row = await trx.updateTable("resellers")
    .set({ balance_cents: sql`balance_cents - ${cents}` })
    .where("id", "=", resellerId)
    .where("deleted_at", "is", null)
    .where("balance_cents", ">=", cents)
    .returning("balance_cents")
    .executeTakeFirst();
  return row ? { oldCents: row.balance_cents + cents, newCents: row.balance_cents } : null;
}

/** Credits a reseller; returns the balances before and after. */
export async function creditReseller(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
): Promise<{ oldCents: number; newCents: number }> {
  const row = await trx.updateTable("resellers")
    .set({ balance_cents: sql`balance_cents + ${cents}` })
    .where("id", "=", resellerId)
    .returning("balance_cents")
    .executeTakeFirstOrThrow();
  return { oldCents: row.balance_cents - cents, newCents: row.balance_cents };
}
