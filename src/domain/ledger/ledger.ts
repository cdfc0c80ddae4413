// Every change of a reseller's balance: the opening balance, a refund, an operator's top-up or
// deduction (an order's debit is part of its placement statement, placeOrderStatement). Each moves
// the balance together with one appended history row in the caller's transaction, so for every
// reseller balance = Σ(new − old) over its history and the rows chain (checkLedger).
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/schema.ts";
import type { BalanceHistoryRow } from "../../db/schema.ts";
import {
  creditReseller,
  debitReseller,
  insertBalanceEntry,
  listAllBalanceMovements,
  listResellerBalances,
} from "../../db/repositories/ledger.ts";
import { inSnapshot } from "../../db/repositories/invariants.ts";
import { setLedgerCheck } from "../../observability/metrics.ts";
import { centsToDollarString as dollars } from "../money.ts";

/** Gives a new reseller its starting balance with the 'initial' history row (old 0). */
export async function openBalance(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
  actor: string,
): Promise<number> {
  const balances = await creditReseller(trx, resellerId, cents);
  await insertBalanceEntry(trx, {
    resellerId,
    type: "initial",
    oldCents: balances.oldCents,
    newCents: balances.newCents,
    actor,
  });
  return balances.newCents;
}

/** Gives an order's amount back with its 'order_refunded' row (unique per order). */
export async function refundOrderAmount(
  trx: Transaction<Database>,
  order: { id: string; resellerId: string; amountCents: number },
  actor: string,
): Promise<void> {
  const balances = await creditReseller(trx, order.resellerId, order.amountCents);
  await insertBalanceEntry(trx, {
    resellerId: order.resellerId,
    type: "order_refunded",
    oldCents: balances.oldCents,
    newCents: balances.newCents,
    orderId: order.id,
    actor,
  });
}

/** Credits an operator's top-up with its 'top_up' row naming the operator. */
export async function topUpBalance(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
  actor: string,
): Promise<BalanceHistoryRow> {
  const balances = await creditReseller(trx, resellerId, cents);
  return await insertBalanceEntry(trx, { resellerId, type: "top_up", ...balances, actor });
}

/**
 * Debits an operator's deduction with its 'deduct' row naming the operator, only if the balance
 * covers it; null when it does not, and then nothing changed.
 */
export async function deductBalance(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
  actor: string,
): Promise<BalanceHistoryRow | null> {
  const balances = await debitReseller(trx, resellerId, cents);
  if (!balances) return null;
  return await insertBalanceEntry(trx, { resellerId, type: "deduct", ...balances, actor });
}

/** One way a reseller's ledger is wrong. */
export interface LedgerViolation {
  resellerId: string;
  resellerName: string;
  problem: string;
}

/**
 * The money invariant (quality bar): for every reseller the balance equals the sum of its
 * history deltas, every row moves the way its type says, rows chain (each row's old is the
 * previous row's new), and nothing is negative.
 */
export async function checkLedger(db: Db): Promise<LedgerViolation[]> {
  const violations = await inSnapshot(db, ledgerViolations);
  setLedgerCheck(violations.length);
  return violations;
}

async function ledgerViolations(db: Db): Promise<LedgerViolation[]> {
  const resellers = await listResellerBalances(db);
  const movements = Map.groupBy(await listAllBalanceMovements(db), (row) => row.reseller_id);
  const violations: LedgerViolation[] = [];
  for (const r of resellers) {
    const rows = movements.get(r.id) ?? [];
    const report = (problem: string) =>
      violations.push({ resellerId: r.id, resellerName: r.name, problem });
    if (r.balance_cents < 0) report(`negative balance ${dollars(r.balance_cents)}`);
    let previous: number | null = null;
    let sum = 0;
    for (const row of rows) {
      sum += row.new_cents - row.old_cents;
      if (previous !== null && row.old_cents !== previous) {
        report(
          `row ${row.id} starts at ${dollars(row.old_cents)}, previous row ended at ${
            dollars(previous)
          }`,
        );
      }
      if (row.new_cents < 0 || row.old_cents < 0) report(`row ${row.id} is negative`);
      previous = row.new_cents;
    }
    if (rows.length === 0) report("no history rows");
    if (sum !== r.balance_cents) {
      report(`balance ${dollars(r.balance_cents)} but history sums to ${dollars(sum)}`);
    }
    if (previous !== null && previous !== r.balance_cents) {
      report(`balance ${dollars(r.balance_cents)} but the last row ends at ${dollars(previous)}`);
    }
  }
  return violations;
}
