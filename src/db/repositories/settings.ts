import { sql } from "kysely";
import type { Db } from "../client.ts";

export async function getSetting<T>(
  db: Db,
  key: string,
): Promise<T | undefined> {
  const row = await db.selectFrom("settings").select("value").where(
    "key",
    "=",
    key,
  )
    .executeTakeFirst();
  return row?.value as T | undefined;
}

/** Inserts the value only if the key is new; returns the stored value either way. */
export async function getOrInitSetting<T>(
  db: Db,
  key: string,
  initial: T,
): Promise<T> {
  await db.insertInto("settings").values({
    key,
    value: JSON.stringify(initial),
  })
    .onConflict((oc) => oc.column("key").doNothing()).execute();
  return (await getSetting<T>(db, key)) as T;
}

export async function putSetting(
  db: Db,
  key: string,
  value: unknown,
  by: string,
): Promise<void> {
  const json = JSON.stringify(value);
  await db.insertInto("settings").values({ key, value: json, updated_by: by })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        value: json,
        updated_by: by,
        updated_at: new Date(),
      })
    )
    .execute();
}

/**
 * A digest of the setting's value ("" when it was never saved): it changes exactly when the value
 * does, which is what a cache of pages made from it compares.
 */
export async function settingVersion(db: Db, key: string): Promise<string> {
  const row = await db.selectFrom("settings").select(sql<string>`md5(value::text)`.as("digest"))
    .where("key", "=", key).executeTakeFirst();
  return row?.digest ?? "";
}
