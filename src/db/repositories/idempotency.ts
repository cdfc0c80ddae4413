import type { Transaction } from "kysely";
import type { Database } from "../schema.ts";

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
