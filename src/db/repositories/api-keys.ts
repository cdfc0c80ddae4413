import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { ApiKeyRow, Database } from "../schema.ts";

/** What a key's owner or an admin sees of it: never the hash. */
export const API_KEY_PUBLIC_COLUMNS = [
  "id",
  "reseller_id",
  "name",
  "prefix",
  "created_at",
  "last_used_at",
  "revoked_at",
] as const;

export type ApiKeyPublicRow = Pick<ApiKeyRow, typeof API_KEY_PUBLIC_COLUMNS[number]>;

export async function insertApiKey(
  trx: Transaction<Database>,
  key: { resellerId: string; name: string; prefix: string; secretHash: string },
): Promise<ApiKeyPublicRow> {
  return await trx.insertInto("api_keys").values({
    reseller_id: key.resellerId,
    name: key.name,
    prefix: key.prefix,
    secret_hash: key.secretHash,
  }).returning(API_KEY_PUBLIC_COLUMNS).executeTakeFirstOrThrow();
}

/** A reseller's keys, newest first, revoked ones included. */
export async function listApiKeys(db: Db, resellerId: string): Promise<ApiKeyPublicRow[]> {
  return await db.selectFrom("api_keys").select(API_KEY_PUBLIC_COLUMNS)
    .where("reseller_id", "=", resellerId)
    .orderBy("created_at", "desc").orderBy("id", "desc").execute();
}

/**
 * Revokes a reseller's key; undefined when it is not theirs or already revoked. The row lock
 * makes a second revoke of the same key wait and then find nothing to do.
 */
export async function revokeApiKey(
  trx: Transaction<Database>,
  resellerId: string,
  id: string,
): Promise<ApiKeyPublicRow | undefined> {
  return await trx.updateTable("api_keys").set({ revoked_at: sql<Date>`now()` })
    .where("id", "=", id).where("reseller_id", "=", resellerId).where("revoked_at", "is", null)
    .returning(API_KEY_PUBLIC_COLUMNS).executeTakeFirst();
}

/** Revokes every live key of a reseller at once; the keys it revoked. */
export async function revokeLiveApiKeys(
  trx: Transaction<Database>,
  resellerId: string,
): Promise<ApiKeyPublicRow[]> {
  return await trx.updateTable("api_keys").set({ revoked_at: sql<Date>`now()` })
    .where("reseller_id", "=", resellerId).where("revoked_at", "is", null)
    .returning(API_KEY_PUBLIC_COLUMNS).execute();
}

/**
 * The live key with this hash whose reseller still exists. Read from the database on every
 * request, so a revoke is seen at once by every instance.
 */
export async function findLiveApiKey(
  db: Db,
  secretHash: string,
): Promise<
  Pick<ApiKeyRow, "id" | "reseller_id" | "name" | "prefix" | "last_used_at"> | undefined
> {
  return await db.selectFrom("api_keys")
    .select(["id", "reseller_id", "name", "prefix", "last_used_at"])
    .where("secret_hash", "=", secretHash).where("revoked_at", "is", null)
    .where((eb) =>
      eb.exists(
        eb.selectFrom("resellers").select("resellers.id")
          .whereRef("resellers.id", "=", "api_keys.reseller_id")
          .where("resellers.deleted_at", "is", null),
      )
    )
    .executeTakeFirst();
}

/**
 * Records a key's use if it is the first of the day (UTC); true when it was. One conditional
 * statement: of parallel first uses, one updates the row and the others, waiting on its lock,
 * find it already used today.
 */
export async function markApiKeyUsedToday(
  trx: Transaction<Database>,
  id: string,
): Promise<boolean> {
  const row = await trx.updateTable("api_keys").set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb("last_used_at", "is", null),
        eb("last_used_at", "<", sql<Date>`date_trunc('day', now(), 'UTC')`),
      ])
    )
    .returning("id").executeTakeFirst();
  return row !== undefined;
}

/** Records a key's use, at most once per `seconds`, so a busy key is not one hot row. */
export async function touchApiKey(db: Db, id: string, seconds: number): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb("last_used_at", "is", null),
        eb("last_used_at", "<", sql<Date>`now() - make_interval(secs => ${seconds})`),
      ])
    )
    .execute();
}
