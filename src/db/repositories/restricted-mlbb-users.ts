import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, RestrictedMlbbUserRow } from "../schema.ts";

/** Every restricted account, newest first (the list is short: the screen sorts and pages it). */
export async function listRestrictedMlbbUsers(db: Db): Promise<RestrictedMlbbUserRow[]> {
  return await db.selectFrom("restricted_mlbb_users")
    .select(["id", "user_id", "server_id", "created_at", "created_by"])
    .orderBy("created_at", "desc").orderBy("id").execute();
}

/**
 * Adds an account unless it is already there. The unique (user_id, server_id) constraint decides
 * between two parallel adds: the loser gets undefined, never a second row.
 */
export async function insertRestrictedMlbbUser(
  trx: Transaction<Database>,
  row: { user_id: string; server_id: string; created_by: string },
): Promise<RestrictedMlbbUserRow | undefined> {
  return await trx.insertInto("restricted_mlbb_users").values(row)
    .onConflict((oc) => oc.columns(["user_id", "server_id"]).doNothing())
    .returning(["id", "user_id", "server_id", "created_at", "created_by"])
    .executeTakeFirst();
}

export async function findRestrictedMlbbUser(
  db: Db,
  userId: string,
  serverId: string,
): Promise<RestrictedMlbbUserRow | undefined> {
  return await db.selectFrom("restricted_mlbb_users")
    .select(["id", "user_id", "server_id", "created_at", "created_by"])
    .where("user_id", "=", userId).where("server_id", "=", serverId).executeTakeFirst();
}

/** Deletes one entry; returns what it was, or undefined when there was none. */
export async function deleteRestrictedMlbbUser(
  trx: Transaction<Database>,
  id: string,
): Promise<RestrictedMlbbUserRow | undefined> {
  return await trx.deleteFrom("restricted_mlbb_users").where("id", "=", id)
    .returning(["id", "user_id", "server_id", "created_at", "created_by"]).executeTakeFirst();
}
