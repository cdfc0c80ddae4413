import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { BalanceEntryType, BalanceHistoryRow, Database, OrderSnapshot } from "../schema.ts";

export interface NewBalanceEntry {
  resellerId: string;
  type: BalanceEntryType;
  oldCents: number;
  newCents: number;
  orderId?: string;
  order?: OrderSnapshot;
  actor: string;
}

/** The row for an entry (also written inside the order placement statement). */
export function balanceEntryValues(entry: NewBalanceEntry) {
  return {
    reseller_id: entry.resellerId,
    type: entry.type,
    old_cents: entry.oldCents,
    new_cents: entry.newCents,
    order_id: entry.orderId ?? null,
    order_snapshot: entry.order ? JSON.stringify(entry.order) : null,
    actor: entry.actor,
  };
}

/** Appends one history row; history is never updated or deleted. */
export async function insertBalanceEntry(
  trx: Transaction<Database>,
  entry: NewBalanceEntry,
): Promise<BalanceHistoryRow> {
  return await trx.insertInto("balance_history").values(balanceEntryValues(entry))
    .returningAll().executeTakeFirstOrThrow();
}

/** A reseller's history in ledger order (oldest first). */
export async function listBalanceEntries(
  db: Db,
  resellerId: string,
): Promise<BalanceHistoryRow[]> {
  return await db.selectFrom("balance_history").selectAll().where(
    "reseller_id",
    "=",
    resellerId,
  )
    .orderBy("id", "asc").execute();
}
