import { sql, type Transaction } from "kysely";
import type { Database, NewOrder } from "../schema.ts";
import { balanceEntryInsert, conditionalDebit, type NewBalanceEntry } from "./ledger.ts";
import { jobValues, type NewJob } from "./jobs.ts";

export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
}

export type ClaimAndDebit =
  | { kind: "replay" }
  | { kind: "short" }
  | { kind: "debited"; oldCents: number; newCents: number; at: Date };

/**
 * One statement: claims the Idempotency-Key (when there is one) and, only if the claim is new,
 * debits the reseller conditionally. A concurrent claim of the same key waits on the primary key
 * until the first transaction ends and then finds it taken, so N parallel requests with one key
 * debit once. `at` is the transaction's now(), the moment the order's created_at defaults to.
 */
export async function claimKeyAndDebit(
  trx: Transaction<Database>,
  resellerId: string,
  cents: number,
  claim?: IdempotencyClaim,
): Promise<ClaimAndDebit> {
  const debit = conditionalDebit(resellerId, cents);
  const { rows } = claim
    ? await sql<{ claimed: boolean; new_cents: number | null; at: Date }>`
        WITH claim AS (
          INSERT INTO idempotency_keys (scope, key, fingerprint)
          VALUES (${claim.scope}, ${claim.key}, ${claim.fingerprint})
          ON CONFLICT (scope, key) DO NOTHING
          RETURNING 1
        ), debit AS (
          ${debit} AND EXISTS (SELECT 1 FROM claim) RETURNING balance_cents
        )
        SELECT EXISTS (SELECT 1 FROM claim) AS claimed,
          (SELECT balance_cents FROM debit) AS new_cents, now() AS at`.execute(trx)
    : await sql<{ claimed: boolean; new_cents: number | null; at: Date }>`
        WITH debit AS (${debit} RETURNING balance_cents)
        SELECT true AS claimed, (SELECT balance_cents FROM debit) AS new_cents, now() AS at`
      .execute(trx);
  const row = rows[0];
  if (!row.claimed) return { kind: "replay" };
  if (row.new_cents === null) return { kind: "short" };
  const newCents = Number(row.new_cents);
  return { kind: "debited", oldCents: newCents + cents, newCents, at: new Date(row.at) };
}

/** The answer stored under an Idempotency-Key, returned again to every repeat of the request. */
export interface StoredResponse {
  scope: string;
  key: string;
  status: number;
  body: unknown;
}

/**
 * One statement: the order, its balance history row, the job that sends it to the supplier and,
 * with an Idempotency-Key, the answer kept for repeats. Runs in the transaction that debited the
 * balance, right after `claimKeyAndDebit`.
 */
export async function insertPlacedOrder(
  trx: Transaction<Database>,
  order: NewOrder,
  entry: NewBalanceEntry,
  job: NewJob,
  response?: StoredResponse,
): Promise<void> {
  const inserts = trx
    .with("history", (qc) => balanceEntryInsert(qc, entry))
    .with(
      "job",
      (qc) => qc.insertInto("jobs").values(jobValues(job)).returning("id"),
    );
  if (!response) {
    await inserts.insertInto("orders").values(order).executeTakeFirstOrThrow();
    return;
  }
  await inserts
    .with("response", (qc) =>
      qc.updateTable("idempotency_keys")
        .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
        .where("scope", "=", response.scope)
        .where("key", "=", response.key)
        .returning("key"))
    .insertInto("orders").values(order).executeTakeFirstOrThrow();
}
