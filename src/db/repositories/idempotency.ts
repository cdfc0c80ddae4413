import type { Transaction } from "kysely";
import type { Database } from "../schema.ts";

/**
 * Claims (scope, key) inside the caller's transaction. A concurrent claim of the same key waits
 * on the unique index until the first transaction ends, then sees its row: so N parallel
 * requests with one key produce one order.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  scope: string,
  key: string,
  fingerprint: string,
): Promise<boolean> {
  const row = await trx.insertInto("idempotency_keys")
    .values({ scope, key, fingerprint })
    .onConflict((oc) => oc.columns(["scope", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  return row !== undefined;
}

export async function findIdempotencyKey(trx: Transaction<Database>, scope: string, key: string) {
  return await trx.selectFrom("idempotency_keys")
    .select(["fingerprint", "response_status", "response_body"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirst();
}

export async function storeIdempotentResponse(
  trx: Transaction<Database>,
  scope: string,
  key: string,
  status: number,
  body: unknown,
): Promise<void> {
  await trx.updateTable("idempotency_keys")
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where("scope", "=", scope)
    .where("key", "=", key)
    .execute();
}
