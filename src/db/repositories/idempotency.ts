import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

export async function findIdempotencyKey(trx: Transaction<Database>, scope: string, key: string) {
  return await trx.selectFrom("idempotency_keys")
    .select(["fingerprint", "response_status", "response_body"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirst();
}

/** Deletes keys created over `days` ago; returns how many. */
export async function deleteIdempotencyKeysOlderThan(db: Db, days: number): Promise<number> {
  const r = await db.deleteFrom("idempotency_keys")
    .where("created_at", "<", sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
