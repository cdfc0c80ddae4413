// The only SQL that changes a reseller's balance or appends to its history: the balance moves
// together with one history row, in the caller's transaction; rows are never updated or deleted.
import { type RawBuilder, sql, type Transaction } from "kysely";
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

/** The row for an entry. */
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

/**
 * The conditional debit, for a statement that adds RETURNING balance_cents: it changes nothing
 * unless the live reseller's balance covers `cents` (an amount, or an expression such as the sum
 * of orders placed together), so a balance never goes below zero and two debits never both pass
 * one check.
 */
export function conditionalDebit(
  resellerId: string,
  cents: number | RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`UPDATE resellers SET balance_cents = balance_cents - ${cents}
    WHERE id = ${resellerId} AND deleted_at IS NULL AND balance_cents >= ${cents}`;
}

/**
 * The conditional debit of several resellers at once, as two CTEs for a statement's WITH list:
 * `covered`, each live reseller of `totals` (a CTE of reseller_id and cents rows) whose balance
 * covers its cents, and `debit`, which debits them their cents and ends with `returning` (`r` is
 * the reseller's row, `t` its total). The others are left as they are. `covered` locks the rows
 * in id order, one after the other, before anything is debited, so two such statements that share
 * resellers wait for each other instead of each holding a row the other needs.
 */
export function conditionalDebitEach(totals: string, returning: RawBuilder<unknown>) {
  return sql`covered AS MATERIALIZED (
      SELECT t.reseller_id, t.cents
      FROM (SELECT * FROM ${sql.table(totals)} ORDER BY reseller_id) t,
        LATERAL (SELECT FROM resellers WHERE id = t.reseller_id AND deleted_at IS NULL
          AND balance_cents >= t.cents FOR UPDATE) l
    ), debit AS (
      UPDATE resellers r SET balance_cents = r.balance_cents - t.cents
      FROM covered t WHERE r.id = t.reseller_id
      ${returning}
    )`;
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

/**
 * Debits a live reseller only if its balance covers `cents` (one conditional statement); returns
 * the balances before and after, or null when the balance is short and nothing changed.
 */
export async function debitReseller(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
): Promise<{ oldCents: number; newCents: number } | null> {
  const { rows } = await sql<{ balance_cents: number }>`${
    conditionalDebit(resellerId, cents)
  } RETURNING balance_cents`.execute(trx);
  if (!rows.length) return null;
  const newCents = Number(rows[0].balance_cents);
  return { oldCents: newCents + cents, newCents };
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

/** A page of a reseller's history, newest first, with ids below `beforeId` (reseller API). */
export async function listBalanceEntriesPage(
  db: Db,
  resellerId: string,
  page: { beforeId?: number; limit: number },
): Promise<BalanceHistoryRow[]> {
  let q = db.selectFrom("balance_history").selectAll().where("reseller_id", "=", resellerId);
  if (page.beforeId !== undefined) q = q.where("id", "<", page.beforeId);
  return await q.orderBy("id", "desc").limit(page.limit).execute();
}

/** Every reseller's balance, deleted ones included: the ledger check covers them all. */
export async function listResellerBalances(
  db: Db,
): Promise<{ id: string; name: string; balance_cents: number }[]> {
  return await db.selectFrom("resellers").select(["id", "name", "balance_cents"]).execute();
}

/** Every history row's movement, by reseller and oldest first, for the ledger check (one scan). */
export async function listAllBalanceMovements(
  db: Db,
): Promise<
  {
    id: number;
    reseller_id: string;
    type: BalanceEntryType;
    old_cents: number;
    new_cents: number;
  }[]
> {
  return await db.selectFrom("balance_history")
    .select(["id", "reseller_id", "type", "old_cents", "new_cents"])
    .orderBy("reseller_id").orderBy("id", "asc").execute();
}
