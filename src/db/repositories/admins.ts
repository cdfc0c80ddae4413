import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { AdminRow, AdminUpdate, Database, NewAdmin } from "../schema.ts";

/** Columns safe to return to a browser: no password hash, no TOTP secret. */
export const ADMIN_PUBLIC_COLUMNS = [
  "id",
  "name",
  "given_name",
  "family_name",
  "email",
  "rank",
  "remarks",
  "totp_confirmed",
  "created_by",
  "created_at",
] as const;

export type AdminPublicRow = Pick<
  AdminRow,
  (typeof ADMIN_PUBLIC_COLUMNS)[number]
>;

/** What checking a password and a code needs; read only by sign-in. */
export const ADMIN_SIGN_IN_COLUMNS = [
  "id",
  "email",
  "password_hash",
  "totp_secret_enc",
  "totp_confirmed",
] as const;

export type AdminSignInRow = Pick<AdminRow, (typeof ADMIN_SIGN_IN_COLUMNS)[number]>;

export async function findAdminByEmail(
  db: Db,
  email: string,
): Promise<AdminPublicRow | undefined> {
  return await db.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS).where("email", "=", email)
    .executeTakeFirst();
}

/** An admin's sign-in columns, found by email or by id. */
export async function findAdminSignIn(
  db: Db,
  by: "email" | "id",
  value: string,
): Promise<AdminSignInRow | undefined> {
  return await db.selectFrom("admins").select(ADMIN_SIGN_IN_COLUMNS).where(by, "=", value)
    .executeTakeFirst();
}

export async function findAdminPublicById(
  db: Db,
  id: string,
): Promise<AdminPublicRow | undefined> {
  return await db.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS).where(
    "id",
    "=",
    id,
  )
    .executeTakeFirst();
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db.selectFrom("admins").select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAdmin(
  db: Db,
  admin: NewAdmin,
): Promise<AdminPublicRow> {
  return await db.insertInto("admins").values(admin).returning(
    ADMIN_PUBLIC_COLUMNS,
  )
    .executeTakeFirstOrThrow();
}

export async function listAdmins(db: Db): Promise<AdminPublicRow[]> {
  return await db.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS).orderBy(
    "created_at",
    "asc",
  )
    .execute();
}

/** `%text%` for ILIKE, with the pattern characters in `text` matched literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Admins whose name, email or rank contains `search` (any case), oldest first. */
export async function searchAdmins(db: Db, search: string): Promise<AdminPublicRow[]> {
  const pattern = containsPattern(search);
  return await db.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS)
    .where((eb) =>
      eb.or([
        eb("name", "ilike", pattern),
        eb("email", "ilike", pattern),
        eb("rank", "ilike", pattern),
      ])
    )
    .orderBy("created_at", "asc").execute();
}

/** Locks one admin row for the rest of the transaction. */
export async function lockAdminById(
  trx: Transaction<Database>,
  id: string,
): Promise<AdminPublicRow | undefined> {
  return await trx.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS).where("id", "=", id)
    .forUpdate().executeTakeFirst();
}

/**
 * Locks every superadmin row and returns their ids: two transactions removing superadmins
 * queue here, so the second sees the first one's delete and the last superadmin stays.
 */
export async function lockSuperadminIds(trx: Transaction<Database>): Promise<string[]> {
  const rows = await trx.selectFrom("admins").select("id")
    .where(sql<string>`lower(trim(rank))`, "=", "superadmin")
    .orderBy("id").forUpdate().execute();
  return rows.map((r) => r.id);
}

export async function updateAdminRow(
  trx: Transaction<Database>,
  id: string,
  changes: Pick<AdminUpdate, "name" | "email" | "rank" | "remarks" | "password_hash">,
): Promise<AdminPublicRow> {
  return await trx.updateTable("admins").set({ ...changes, updated_at: new Date() })
    .where("id", "=", id).returning(ADMIN_PUBLIC_COLUMNS).executeTakeFirstOrThrow();
}

export async function deleteAdminRow(trx: Transaction<Database>, id: string): Promise<void> {
  await trx.deleteFrom("admins").where("id", "=", id).execute();
}
