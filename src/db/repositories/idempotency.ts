import { type Kysely, sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

/** A claimed key: the fingerprint of the request that claimed it and its answer's text as sent. */
export async function findIdempotencyKey(db: Kysely<Database>, scope: string, key: string) {
  return await db.selectFrom("idempotency_keys")
    .select(["fingerprint", "response_status", "response_body"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirst();
}

/**
 * Claims a key for a request: true when this transaction claimed it, false when it was taken. A
 * concurrent claim of the same key waits on the primary key until the first transaction ends,
 * so a double click is processed once and the second request reads the first one's answer.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  claim: { scope: string; key: string; fingerprint: string },
): Promise<boolean> {
  const row = await trx.insertInto("idempotency_keys")
    .values({ scope: claim.scope, key: claim.key, fingerprint: claim.fingerprint })
    .onConflict((oc) => oc.columns(["scope", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps the answer given under a claimed key, returned again to every repeat of the request. */
export async function saveIdempotentResponse(
  trx: Transaction<Database>,
  scope: string,
  key: string,
  response: { status: number; body: unknown },
): Promise<void> {
  await trx.updateTable("idempotency_keys")
    .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
    .where("scope", "=", scope)
    .where("key", "=", key)
    .execute();
}

/** Deletes keys created over `days` ago; returns how many. */
export async function deleteIdempotencyKeysOlderThan(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("idempotency_keys")
    .where("created_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
