// The admin dashboard's sums (spec §2 Dashboard, §9), all in SQL: no order row is loaded into the
// app. Whole days come from dashboard_daily plus the dashboard_changes lines the job runner has not
// folded into it yet (migration 0017; rollUpDashboard folds them); the partial days at a window's
// ends come from the successful orders themselves, over the partial index orders_dashboard. So a
// view costs a few thousand daily rows, the last fold interval's lines and at most two days of
// orders, whatever the number of orders ever placed; and it is exact whenever it is read.
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../client.ts";

/** Count and sums of a set of orders; sums as exact decimal text (cents are whole, cost is not). */
export interface OrderSums {
  orders: number;
  amountCents: string;
  cost: string;
}

/** One group of the window sums: all orders, one reseller's, or one package's. */
export interface WindowSumsRow {
  group: "all" | "reseller" | "package";
  /** The reseller id or package name of the group; null for "all" (and for consumer orders). */
  key: string | null;
  /** The sums per window, by the window names the caller gave. */
  windows: Record<string, OrderSums>;
}

/** A half-open time range [from, to). */
export interface Range {
  from: Date;
  to: Date;
}

/** How one window is read: whole days from the daily totals, the rest order by order. */
export interface WindowParts {
  /** Whole days: the daily rows whose day starts in [from, to). */
  days?: Range;
  /** Ranges of orders read one by one. */
  orders: Range[];
}

/** One bucket of a time series: its start and the sums of the orders in it. */
export interface BucketSums extends OrderSums {
  start: Date;
}

/** Reseller names (matched case-insensitively) whose orders are not counted. */
function notExcluded(excludedAccounts: string[]): RawBuilder<unknown> {
  const names = excludedAccounts.map((n) => n.trim().toLowerCase());
  if (names.length === 0) return sql`true`;
  // Consumer orders have no reseller: NOT IN alone would drop them (NULL NOT IN … is NULL).
  return sql`(reseller_id IS NULL OR reseller_id NOT IN (
    SELECT id FROM resellers WHERE lower(name) IN (${sql.join(names)})))`;
}

/** The daily totals: the folded rows and the lines not folded yet (a day may be in both). */
export const DAILY =
  sql`(SELECT day, reseller_id, package, orders, amount_cents, cost FROM dashboard_daily
  UNION ALL
  SELECT day, reseller_id, package, orders, amount_cents, cost FROM dashboard_changes) AS daily`;

/**
 * Folds every change line this statement sees into dashboard_daily and deletes it, in one
 * statement, so a line is counted in exactly one of the two at every moment. Lines of
 * transactions still open stay for the next fold; two folds at once never take the same line
 * (the second waits on the first's deleted rows and then skips them). Returns the lines folded.
 */
export async function foldDashboardChanges(db: Db): Promise<number> {
  const { rows } = await sql<{ lines: number | string }>`
    WITH folded AS (
      DELETE FROM dashboard_changes
      RETURNING day, reseller_id, package, orders, amount_cents, cost
    ), sums AS (
      SELECT day, reseller_id, package, sum(orders) AS orders,
        sum(amount_cents) AS amount_cents, sum(cost) AS cost, count(*) AS lines
      FROM folded GROUP BY day, reseller_id, package
    ), upsert AS (
      INSERT INTO dashboard_daily AS d (day, reseller_id, package, orders, amount_cents, cost)
      SELECT day, reseller_id, package, orders, amount_cents, cost FROM sums
      ORDER BY day, reseller_id, package
      ON CONFLICT (day, (coalesce(reseller_id::text, '')), (coalesce(package, '')))
      DO UPDATE SET orders = d.orders + EXCLUDED.orders,
        amount_cents = d.amount_cents + EXCLUDED.amount_cents, cost = d.cost + EXCLUDED.cost
    )
    SELECT coalesce(sum(lines), 0)::int AS lines FROM sums`.execute(db);
  return Number(rows[0].lines);
}

/**
 * Reclaims the folded lines' space: the dashboard scans the whole log, dead lines too, and PGlite
 * runs no autovacuum (PostgreSQL's would get to it later).
 */
export async function vacuumDashboardChanges(db: Db): Promise<void> {
  await sql`VACUUM dashboard_changes`.execute(db);
}

function inRange(column: RawBuilder<unknown>, r: Range): RawBuilder<unknown> {
  return sql`(${column} >= ${r.from} AND ${column} < ${r.to})`;
}

function anyOf(conditions: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return conditions.length ? sql`(${sql.join(conditions, sql` OR `)})` : sql`false`;
}

function readSums(row: Record<string, unknown>, prefix: string): OrderSums {
  return {
    orders: Number(row[`${prefix}_n`] ?? 0),
    amountCents: String(row[`${prefix}_amount`] ?? "0"),
    cost: String(row[`${prefix}_cost`] ?? "0"),
  };
}

/**
 * Sums of successful orders per window for all orders, per reseller and per package, in one
 * statement: GROUPING SETS over the daily rows and the orders of the windows' partial days.
 */
export async function sumOrderWindows(
  db: Db,
  excludedAccounts: string[],
  windows: Record<string, WindowParts>,
): Promise<WindowSumsRow[]> {
  const names = Object.keys(windows);
  const at = sql`at`;
  const dayRanges = names.flatMap((n) => windows[n].days ?? []);
  const orderRanges = names.flatMap((n) => windows[n].orders);
  const columns = names.map((name, i) => {
    const w = windows[name];
    const inWindow = anyOf([
      ...(w.days ? [sql`(kind = 'day' AND ${inRange(at, w.days)})`] : []),
      ...w.orders.map((r) => sql`(kind = 'order' AND ${inRange(at, r)})`),
    ]);
    return sql`coalesce(sum(n) FILTER (WHERE ${inWindow}), 0)::text AS ${sql.ref(`w${i}_n`)},
      coalesce(sum(amount_cents) FILTER (WHERE ${inWindow}), 0)::text
        AS ${sql.ref(`w${i}_amount`)},
      coalesce(sum(cost) FILTER (WHERE ${inWindow}), 0)::text AS ${sql.ref(`w${i}_cost`)}`;
  });
  const { rows } = await sql<Record<string, unknown>>`
    WITH parts AS (
      SELECT 'day' AS kind, day AS at, reseller_id, package, orders AS n, amount_cents, cost
      FROM ${DAILY}
      WHERE ${anyOf(dayRanges.map((r) => inRange(sql`day`, r)))}
        AND ${notExcluded(excludedAccounts)}
      UNION ALL
      SELECT 'order', created_at, reseller_id, package, 1, amount_cents, cost
      FROM orders
      WHERE status = 'successful' AND ${anyOf(orderRanges.map((r) => inRange(sql`created_at`, r)))}
        AND ${notExcluded(excludedAccounts)}
    )
    SELECT GROUPING(reseller_id)::int AS g_reseller, GROUPING(package)::int AS g_package,
      reseller_id::text AS reseller_id, package, ${sql.join(columns)}
    FROM parts
    GROUP BY GROUPING SETS ((), (reseller_id), (package))`.execute(db);
  return rows.map((row) => {
    const group = Number(row.g_reseller) === 0
      ? "reseller"
      : Number(row.g_package) === 0
      ? "package"
      : "all";
    const key = group === "reseller"
      ? row.reseller_id as string | null
      : group === "package"
      ? row.package as string | null
      : null;
    const sums: Record<string, OrderSums> = {};
    names.forEach((name, i) => sums[name] = readSums(row, `w${i}`));
    return { group, key, windows: sums };
  });
}

/** Sums per whole day from the daily totals, for days starting in `days`, oldest first. */
export async function sumDays(
  db: Db,
  excludedAccounts: string[],
  days: Range,
): Promise<BucketSums[]> {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT day AS start, sum(orders)::text AS b_n, sum(amount_cents)::text AS b_amount,
      sum(cost)::text AS b_cost
    FROM ${DAILY}
    WHERE ${inRange(sql`day`, days)} AND ${notExcluded(excludedAccounts)}
    GROUP BY day ORDER BY day`.execute(db);
  return rows.map((row) => ({
    start: new Date(row.start as string | Date),
    ...readSums(row, "b"),
  }));
}

/**
 * Sums of the successful orders in `range` per bucket of `unit` ("1 day", "1 hour") aligned on
 * `origin`, oldest first; empty buckets are absent.
 */
export async function sumOrderBuckets(
  db: Db,
  excludedAccounts: string[],
  range: Range,
  unit: "1 day" | "1 hour",
  origin: Date,
): Promise<BucketSums[]> {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT date_bin(${sql.lit(unit)}::interval, created_at, ${origin}::timestamptz) AS start,
      count(*)::int AS b_n, sum(amount_cents)::text AS b_amount, sum(cost)::text AS b_cost
    FROM orders
    WHERE status = 'successful' AND ${inRange(sql`created_at`, range)}
      AND ${notExcluded(excludedAccounts)}
    GROUP BY 1 ORDER BY 1`.execute(db);
  return rows.map((row) => ({
    start: new Date(row.start as string | Date),
    ...readSums(row, "b"),
  }));
}

/** Every reseller with its balance, deleted ones too (their orders still count), by name. */
export async function listDashboardResellers(
  db: Db,
): Promise<{ id: string; name: string; balance_cents: number; deleted: boolean }[]> {
  const rows = await db.selectFrom("resellers")
    .select(["id", "name", "balance_cents", "deleted_at"]).orderBy("name").execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    balance_cents: Number(r.balance_cents),
    deleted: r.deleted_at !== null,
  }));
}
