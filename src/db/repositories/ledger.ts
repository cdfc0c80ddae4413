import type { Transaction } from "kysely";
import { sql } from "kysely";
import type { Database } from "../schema.ts";

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
