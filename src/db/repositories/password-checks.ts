import { sql } from "kysely";
import type { Db } from "../client.ts";

/** An account that signs in with a password: an admin, or a reseller not deleted. */
export interface AccountPassword {
  type: "admin" | "reseller";
  id: string;
  email: string;
  password_hash: string;
}

/** Every account that can sign in, with its password hash. */
export async function listAccountPasswords(db: Db): Promise<AccountPassword[]> {
  const admins = await db.selectFrom("admins")
    .select(["id", "email", "password_hash", sql<"admin">`'admin'`.as("type")])
    .execute();
  const resellers = await db.selectFrom("resellers")
    .select(["id", "email", "password_hash", sql<"reseller">`'reseller'`.as("type")])
    .where("deleted_at", "is", null)
    .execute();
  return [...admins, ...resellers];
}

/** Which of `digests` were already checked. */
export async function findCheckedDigests(db: Db, digests: string[]): Promise<string[]> {
  if (!digests.length) return [];
  const rows = await db.selectFrom("password_checks").select("digest")
    .where("digest", "in", digests)
    .execute();
  return rows.map((row) => row.digest);
}

/** Remembers `digests` as checked. */
export async function recordCheckedDigests(db: Db, digests: string[]): Promise<void> {
  if (!digests.length) return;
  await db.insertInto("password_checks").values(digests.map((digest) => ({ digest })))
    .onConflict((oc) => oc.column("digest").doNothing())
    .execute();
}
