import type { Db } from "../db/client.ts";

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
  const resellers = await db.selectFrom("resellers").select(["id", "name", "balance_cents"])
    .execute();
  const violations: LedgerViolation[] = [];
  for (const r of resellers) {
    const rows = await db.selectFrom("balance_history")
      .select(["id", "type", "old_cents", "new_cents"])
      .where("reseller_id", "=", r.id).orderBy("id", "asc").execute();
    const report = (problem: string) =>
      violations.push({ resellerId: r.id, resellerName: r.name, problem });
    if (r.balance_cents < 0) report(`negative balance ${r.balance_cents}`);
    let previous: number | null = null;
    let sum = 0;
    for (const row of rows) {
      sum += row.new_cents - row.old_cents;
      if (previous !== null && row.old_cents !== previous) {
        report(`row ${row.id} starts at ${row.old_cents}, previous row ended at ${previous}`);
      }
      if (row.new_cents < 0 || row.old_cents < 0) report(`row ${row.id} is negative`);
      previous = row.new_cents;
    }
    if (rows.length === 0) report("no history rows");
    if (sum !== r.balance_cents) {
      report(`balance ${r.balance_cents} but history sums to ${sum}`);
    }
    if (previous !== null && previous !== r.balance_cents) {
      report(`balance ${r.balance_cents} but the last row ends at ${previous}`);
    }
  }
  return violations;
}
