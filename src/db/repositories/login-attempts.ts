import { type RawBuilder, sql } from "kysely";
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

/** Whole seconds until `key`'s current window ends (at least 1; 1 when it has none). */
export async function secondsLeftInWindow(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const row = await db.selectFrom("login_attempts")
    .select(
      sql<number>`ceil(extract(epoch from
        window_start + make_interval(secs => ${windowSeconds}) - now()))::int`.as("wait"),
    )
    .where("key", "=", key)
    .executeTakeFirst();
  return Math.max(1, row?.wait ?? 1);
}

const expiredAfter = (windowSeconds: number) =>
  sql<boolean>`login_attempts.window_start <= now() - make_interval(secs => ${windowSeconds})`;

/** The update that counts one more hit, in a new window when the old one has passed. */
const nextHit = (expired: RawBuilder<boolean>) => ({
  failures: sql<number>`CASE WHEN ${expired} THEN 1 ELSE login_attempts.failures + 1 END`,
  window_start: sql<Date>`CASE WHEN ${expired} THEN now() ELSE login_attempts.window_start END`,
  last_at: sql<Date>`now()`,
});

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
  return (await recordHitInWindow(db, key, windowSeconds, max))?.count;
}

/**
 * `recordHit` that also says how many whole seconds are left in the window the hit was counted
 * in (at least 1), for a client told its remaining quota; undefined when the hit was refused.
 */
export async function recordHitInWindow(
  db: Db,
  key: string,
  windowSeconds: number,
  max: number,
): Promise<{ count: number; secondsLeft: number } | undefined> {
  const expired = expiredAfter(windowSeconds);
  const row = await db.insertInto("login_attempts")
    .values({ key, failures: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet(nextHit(expired))
        .where(sql<boolean>`${expired} OR login_attempts.failures < ${max}`)
    )
    .returning([
      "failures",
      sql<number>`ceil(extract(epoch from
        login_attempts.window_start + make_interval(secs => ${windowSeconds}) - now()))::int`
        .as("wait"),
    ])
    .executeTakeFirst();
  return row && { count: row.failures, secondsLeft: Math.max(1, Number(row.wait)) };
}

/** Hits a key may take at once, then the wait after its last hit (doubling) before the next. */
export interface Spacing {
  windowSeconds: number;
  free: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

/** When a spaced key may take its next hit: at once below `free` hits, else after a delay. */
const nextHitAt = (s: Spacing) =>
  sql<Date>`CASE WHEN login_attempts.failures < ${s.free} THEN login_attempts.last_at
    ELSE login_attempts.last_at + make_interval(secs => least(
      ${s.firstDelaySeconds} * power(2, least(login_attempts.failures - ${s.free}, 30)),
      ${s.maxDelaySeconds}))
    END`;

/**
 * Adds one hit for `key` if it may take one now: within its first `free` hits at once, then only
 * once the delay since its last hit has passed, the delay doubling with each hit (up to the
 * maximum); the count starts over when its window has passed. One statement, like `recordHit`.
 * Returns the count, or undefined when the hit was refused (nothing written).
 */
export async function recordSpacedHit(
  db: Db,
  key: string,
  spacing: Spacing,
): Promise<number | undefined> {
  const expired = expiredAfter(spacing.windowSeconds);
  const row = await db.insertInto("login_attempts")
    .values({ key, failures: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet(nextHit(expired))
        .where(sql<boolean>`${expired} OR ${nextHitAt(spacing)} <= now()`)
    )
    .returning("failures")
    .executeTakeFirst();
  return row?.failures;
}

/** Whole seconds until a spaced `key` may take its next hit (at least 1). */
export async function secondsUntilSpacedHit(
  db: Db,
  key: string,
  spacing: Spacing,
): Promise<number> {
  const row = await db.selectFrom("login_attempts")
    .select(sql<number>`ceil(extract(epoch from ${nextHitAt(spacing)} - now()))::int`.as("wait"))
    .where("key", "=", key)
    .executeTakeFirst();
  return Math.max(1, row?.wait ?? 1);
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
