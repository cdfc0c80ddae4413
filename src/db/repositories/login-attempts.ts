import { sql } from "kysely";
import type { Db } from "../client.ts";

/** Hits (failures or requests) counted for `key` in the current window (0 once it has passed). */
export async function countInWindow(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const row = await db.selectFrom("login_attempts").select("failures")
    .where("key", "=", key)
    .where(
      "window_start",
      ">",
      sql<Date>`now() - make_interval(secs => ${windowSeconds})`,
    )
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/**
 * Adds one hit for `key` unless its window already holds `max`, starting a new window when the
 * old one has passed; one statement, so concurrent requests on any instance count exactly.
 * Returns the count in the window, or undefined when the hit was refused (nothing written).
 */
export async function recordHit(
  db: Db,
  key: string,
  windowSeconds: number,
  max: number,
): Promise<number | undefined> {
  const expired = sql<
    boolean
  >`login_attempts.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  const row = await db.insertInto("login_attempts")
    .values({ key, failures: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        failures: sql`CASE WHEN ${expired} THEN 1 ELSE login_attempts.failures + 1 END`,
        window_start: sql`CASE WHEN ${expired} THEN now() ELSE login_attempts.window_start END`,
      }).where(sql<boolean>`${expired} OR login_attempts.failures < ${max}`)
    )
    .returning("failures")
    .executeTakeFirst();
  return row?.failures;
}

/**
 * Takes back one hit of `key`: an attempt that turned out right, or that another limit refused.
 * Never below zero, whatever window the count is in by then.
 */
export async function releaseHit(db: Db, key: string): Promise<void> {
  await db.updateTable("login_attempts")
    .set({ failures: sql`greatest(login_attempts.failures - 1, 0)` })
    .where("key", "=", key)
    .execute();
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom("login_attempts").where("key", "=", key).execute();
}

/** Deletes throttle counters whose window started over `hours` ago; returns how many. */
export async function deleteLoginAttemptsOlderThan(db: Db, hours: number): Promise<number> {
  const r = await db.deleteFrom("login_attempts")
    .where("window_start", "<", sql<Date>`now() - make_interval(hours => ${hours})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
