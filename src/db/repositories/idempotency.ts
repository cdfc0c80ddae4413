import type { Transaction } from "kysely";
import type { Database } from "../schema.ts";

export async function findIdempotencyKey(trx: Transaction<Database>, scope: string, key: string) {
  return await trx.selectFrom("idempotency_keys")
    .select(["fingerprint", "response_status", "response_body"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .executeTakeFirst();
}
