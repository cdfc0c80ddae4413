import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, NewReseller, ResellerRow } from "../schema.ts";

/** Columns safe to return to a browser: no password hash, no TOTP secret. */
export const RESELLER_PUBLIC_COLUMNS = [
  "id",
  "name",
  "phone",
  "email",
  "balance_cents",
  "markup",
  "remarks",
  "disable_discounts",
  "rank",
  "two_fa_enabled",
  "created_by",
  "created_at",
] as const;

export type ResellerPublicRow = Pick<
  ResellerRow,
  (typeof RESELLER_PUBLIC_COLUMNS)[number]
>;

/** What checking a password and a code needs; read only by sign-in. */
export const RESELLER_SIGN_IN_COLUMNS = [
  "id",
  "email",
  "password_hash",
  "two_fa_enabled",
  "totp_secret_enc",
  "totp_confirmed",
] as const;

export type ResellerSignInRow = Pick<ResellerRow, (typeof RESELLER_SIGN_IN_COLUMNS)[number]>;

export async function findResellerByEmail(
  db: Db,
  email: string,
): Promise<ResellerPublicRow | undefined> {
  return await db.selectFrom("resellers").select(RESELLER_PUBLIC_COLUMNS)
    .where("email", "=", email).where("deleted_at", "is", null).executeTakeFirst();
}

/** A live reseller's sign-in columns, found by email or by id. */
export async function findResellerSignIn(
  db: Db,
  by: "email" | "id",
  value: string,
): Promise<ResellerSignInRow | undefined> {
  return await db.selectFrom("resellers").select(RESELLER_SIGN_IN_COLUMNS)
    .where(by, "=", value).where("deleted_at", "is", null).executeTakeFirst();
}

export async function findResellerPublicById(
  db: Db,
  id: string,
): Promise<ResellerPublicRow | undefined> {
  return await db.selectFrom("resellers").select(RESELLER_PUBLIC_COLUMNS).where(
    "id",
    "=",
    id,
  )
    .where("deleted_at", "is", null).executeTakeFirst();
}

/** Inserts a reseller at a zero balance: the ledger gives it its opening balance. */
export async function insertReseller(
  db: Db,
  reseller: Omit<NewReseller, "balance_cents">,
): Promise<ResellerPublicRow> {
  return await db.insertInto("resellers").values(reseller).returning(
    RESELLER_PUBLIC_COLUMNS,
  )
    .executeTakeFirstOrThrow();
}

/** Sets one markup key (a game's supplierName) for every live reseller, or for those named. */
export async function setResellerMarkupKey(
  trx: Transaction<Database>,
  key: string,
  percent: number,
  resellerNames?: string[],
): Promise<void> {
  let q = trx.updateTable("resellers")
    .set({ markup: sql`markup || jsonb_build_object(${key}::text, ${percent}::numeric)` })
    .where("deleted_at", "is", null);
  if (resellerNames) {
    if (!resellerNames.length) return;
    q = q.where("name", "in", resellerNames);
  }
  await q.execute();
}

/** Names of all live resellers. */
export async function listResellerNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("resellers").select("name").where("deleted_at", "is", null)
    .orderBy("name").execute();
  return rows.map((r) => r.name);
}

export async function listResellerRows(db: Db): Promise<ResellerPublicRow[]> {
  return await db.selectFrom("resellers").select(RESELLER_PUBLIC_COLUMNS)
    .where("deleted_at", "is", null).orderBy("name").execute();
}

/** Live resellers whose name matches case-insensitively (names differ only in case at most). */
export async function findResellersByNameInsensitive(
  db: Db,
  name: string,
): Promise<{ id: string; name: string }[]> {
  return await db.selectFrom("resellers").select(["id", "name"])
    .where(sql<string>`lower(name)`, "=", name.trim().toLowerCase())
    .where("deleted_at", "is", null)
    .orderBy("name").execute();
}

export async function setResellerPasswordHash(
  trx: Transaction<Database>,
  id: string,
  passwordHash: string,
): Promise<void> {
  await trx.updateTable("resellers").set({ password_hash: passwordHash, updated_at: new Date() })
    .where("id", "=", id).execute();
}

/** Locks a live reseller's row for the rest of the transaction; undefined when none. */
export async function lockLiveReseller(
  trx: Transaction<Database>,
  id: string,
): Promise<ResellerPublicRow | undefined> {
  return await trx.selectFrom("resellers").select(RESELLER_PUBLIC_COLUMNS)
    .where("id", "=", id).where("deleted_at", "is", null)
    .forUpdate().executeTakeFirst();
}

/** The details an admin edits; the balance is not among them (only the ledger moves it). */
export interface ResellerDetailsUpdate {
  name: string;
  phone: string;
  email: string;
  markup: Record<string, number>;
  remarks: string;
  disable_discounts: boolean;
  password_hash?: string;
}

/** Saves a live reseller's details; returns the row after. */
export async function updateResellerDetails(
  trx: Transaction<Database>,
  id: string,
  details: ResellerDetailsUpdate,
): Promise<ResellerPublicRow> {
  return await trx.updateTable("resellers")
    .set({ ...details, markup: JSON.stringify(details.markup), updated_at: new Date() })
    .where("id", "=", id).where("deleted_at", "is", null)
    .returning(RESELLER_PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Marks a live reseller deleted; its orders and history rows stay. False when none was live. */
export async function softDeleteReseller(trx: Transaction<Database>, id: string): Promise<boolean> {
  const r = await trx.updateTable("resellers").set({ deleted_at: new Date() })
    .where("id", "=", id).where("deleted_at", "is", null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
