// The admin dashboard (spec §2 Dashboard, §6, §9): successful orders dated on or after 4 Apr 2025,
// except those of the internal accounts an admin lists, summed per window (Lifetime, 168 h, 24 h,
// 8 h), per reseller and per Mobile Legends package, plus the buckets of two charts. The sums are
// SQL (src/db/repositories/dashboard.ts); this module turns them into money figures and labelled
// buckets, which the dashboard island draws at the width it has.
import type { Db } from "../../db/client.ts";
import {
  foldDashboardChanges,
  listDashboardResellers,
  type OrderSums,
  sumDays,
  sumOrderBuckets,
  sumOrderWindows,
  vacuumDashboardChanges,
  type WindowParts,
} from "../../db/repositories/dashboard.ts";
import { getSetting, putSetting } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type {
  Dashboard,
  DashboardBucket,
  DashboardExclusions,
  DashboardFigures,
  DashboardWindowKey,
} from "../../shared/dashboard-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import type { PeriodicTask } from "../jobs.ts";
import { readAlertSettings } from "../operations/alert-settings.ts";
import { supplierBalances } from "../operations/balances.ts";
import { centsToDollars, decimalToNearestCents } from "../money.ts";
import { BUSINESS_UTC_OFFSET_HOURS, formatBusinessDate } from "../../shared/business-time.ts";

/**
 * Orders before this are never counted (spec §9: "on or after 4 Apr 2025"). The business sells in
 * SGD, so the day starts at midnight Singapore time (UTC+8, no daylight saving), the clock of every
 * date the consoles show (src/shared/business-time.ts): the charts' days start at its midnight and
 * are labelled in it.
 */
export const LIFETIME_START = new Date("2025-04-04T00:00:00+08:00");
/** Settings key of the exclusion lists. */
export const DASHBOARD_EXCLUSIONS_KEY = "dashboardExclusions";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The Orders table's rows (spec §9: windows in hours). */
export const DASHBOARD_WINDOWS: { key: DashboardWindowKey; label: string; hours: number }[] = [
  { key: "lifetime", label: "Lifetime", hours: 1_000_000 },
  { key: "past7Days", label: "Past 7 Days", hours: 168 },
  { key: "past24Hours", label: "Past 24 Hours", hours: 24 },
  { key: "past8Hours", label: "Past 8 Hours", hours: 8 },
];

/** The Packages section's rows, in the spec's order. */
export const DASHBOARD_PACKAGES = [
  { package: "mlbb_special", label: "MLBB Special" },
  { package: "mlbb_global", label: "MLBB Global" },
  { package: "mlbb", label: "MLBB" },
];

/** Days of the revenue chart and hours of the orders chart. */
export const CHART_DAYS = 30;
export const CHART_HOURS = 24;

/**
 * How often a job runner folds the dashboard's change lines into the daily totals. The figures
 * never wait for it (the dashboard reads the lines not folded yet too); it bounds how many lines
 * a view sums: at most this interval's deliveries, and its status changes of older orders.
 */
export const DASHBOARD_ROLLUP_MS = 10_000;

/**
 * Folds the change lines that orders' writes appended into the daily totals (one statement), then
 * vacuums the log when it folded any, so a view never scans dead lines; returns how many were
 * folded. Any number of runners may fold at once.
 */
export async function rollUpDashboard(db: Db): Promise<number> {
  const lines = await foldDashboardChanges(db);
  if (lines > 0 && !db.isTransaction) await vacuumDashboardChanges(db);
  return lines;
}

/** The job runner's periodic fold of the dashboard's change lines. */
export function dashboardRollup(db: Db): PeriodicTask {
  return { name: "dashboard rollup", everyMs: DASHBOARD_ROLLUP_MS, run: () => rollUpDashboard(db) };
}

const NO_EXCLUSIONS: DashboardExclusions = { excludedAccounts: [], hiddenResellerNames: [] };

/** The admin's exclusion lists (none until an admin saves some). */
export async function readDashboardExclusions(db: Db): Promise<DashboardExclusions> {
  return {
    ...NO_EXCLUSIONS,
    ...await getSetting<DashboardExclusions>(db, DASHBOARD_EXCLUSIONS_KEY),
  };
}

/** Trimmed, without case-insensitive duplicates, first spelling kept. */
function distinctNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((n) => n.trim()).filter((n) => {
    const key = n.toLowerCase();
    if (n === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Saves both exclusion lists, audited in the same transaction with the lists before and after. */
export async function saveDashboardExclusions(
  db: Db,
  input: DashboardExclusions,
  actor: OperatorActor,
): Promise<DashboardExclusions> {
  const saved = {
    excludedAccounts: distinctNames(input.excludedAccounts),
    hiddenResellerNames: distinctNames(input.hiddenResellerNames),
  };
  await db.transaction().execute(async (trx) => {
    const before = await readDashboardExclusions(trx);
    await putSetting(trx, DASHBOARD_EXCLUSIONS_KEY, saved, actor.name);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "settings.update",
      targetType: "settings",
      targetId: DASHBOARD_EXCLUSIONS_KEY,
      before,
      after: saved,
    });
  });
  return saved;
}

/** a ÷ b rounded half away from zero, exact (b > 0). */
function divideRounded(a: bigint, b: bigint): bigint {
  const q = (2n * (a < 0n ? -a : a) + b) / (2n * b);
  return a < 0n ? -q : q;
}

/** The money figures of a set of orders, to the cent; margin = profit ÷ revenue × 100, 2 decimals. */
export function figuresOf(sums: OrderSums): DashboardFigures {
  const revenue = BigInt(sums.amountCents);
  const cost = BigInt(decimalToNearestCents(sums.cost, "cost"));
  const profit = revenue - cost;
  const orders = BigInt(sums.orders);
  return {
    orders: sums.orders,
    averageOrder: orders > 0n ? centsToDollars(Number(divideRounded(revenue, orders))) : 0,
    revenue: centsToDollars(Number(revenue)),
    cost: centsToDollars(Number(cost)),
    profit: centsToDollars(Number(profit)),
    margin: revenue > 0n ? Number(divideRounded(profit * 10_000n, revenue)) / 100 : 0,
  };
}

const NO_ORDERS: OrderSums = { orders: 0, amountCents: "0", cost: "0" };

function dayLabel(start: Date): string {
  return formatBusinessDate(start, "d MMM");
}

function hourLabel(start: Date): string {
  return formatBusinessDate(start, "h aaa");
}

/**
 * One entry per bucket from `first`, `count` buckets of `size` ms, zero where no order fell, each
 * labelled in business time.
 */
function fillBuckets(
  sums: { start: Date; orders: number; amountCents: string; cost: string }[],
  first: Date,
  count: number,
  size: number,
  label: (start: Date) => string,
): DashboardBucket[] {
  const byStart = new Map(sums.map((s) => [s.start.getTime(), s]));
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(first.getTime() + i * size);
    const f = figuresOf(byStart.get(start.getTime()) ?? NO_ORDERS);
    return {
      start: start.toISOString(),
      label: label(start),
      orders: f.orders,
      revenue: f.revenue,
      profit: f.profit,
    };
  });
}

/** The start of the business day holding `at`. */
function dayStart(at: Date): Date {
  const offset = BUSINESS_UTC_OFFSET_HOURS * HOUR_MS;
  return new Date(Math.floor((at.getTime() + offset) / DAY_MS) * DAY_MS - offset);
}

/**
 * How the window [from, end) is summed: whole days before today from the daily totals, and the
 * orders of the partial day at its start and of today one by one. Today is always read order by
 * order, so the window ends exactly at `end`.
 */
export function windowParts(from: Date, end: Date): WindowParts {
  const today = dayStart(new Date(end.getTime() - 1));
  const firstWholeDay = dayStart(from).getTime() === from.getTime()
    ? from
    : new Date(dayStart(from).getTime() + DAY_MS);
  if (firstWholeDay >= today) return { orders: [{ from, to: end }] };
  const orders = [{ from: today, to: end }];
  if (from < firstWholeDay) orders.unshift({ from, to: firstWholeDay });
  return { days: { from: firstWholeDay, to: today }, orders };
}

/** Reads every figure of the dashboard as of `now` (orders at `now` itself count). */
export async function readDashboard(db: Db, now: Date = new Date()): Promise<Dashboard> {
  const exclusions = await readDashboardExclusions(db);
  const excluded = exclusions.excludedAccounts;
  const end = new Date(now.getTime() + 1);
  const latest = (a: Date, b: Date) => (a > b ? a : b);
  const windows = Object.fromEntries(DASHBOARD_WINDOWS.map((w) => [
    w.key,
    windowParts(latest(new Date(now.getTime() - w.hours * HOUR_MS), LIFETIME_START), end),
  ]));
  const today = dayStart(now);
  const firstDay = new Date(today.getTime() - (CHART_DAYS - 1) * DAY_MS);
  const firstHour = new Date(
    Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (CHART_HOURS - 1) * HOUR_MS,
  );

  const [groups, resellerRows, pastDays, todaySums, hours, balances] = await Promise.all([
    sumOrderWindows(db, excluded, windows),
    listDashboardResellers(db),
    sumDays(db, excluded, { from: latest(firstDay, LIFETIME_START), to: today }),
    sumOrderBuckets(db, excluded, { from: latest(today, LIFETIME_START), to: end }, "1 day", today),
    sumOrderBuckets(
      db,
      excluded,
      { from: latest(firstHour, LIFETIME_START), to: end },
      "1 hour",
      new Date(0),
    ),
    readAlertSettings(db).then((settings) => supplierBalances(db, settings, now)),
  ]);
  const days = [...pastDays, ...todaySums];

  const all = groups.find((g) => g.group === "all")?.windows ?? {};
  const windowOf = (w: Record<string, OrderSums> | undefined, key: DashboardWindowKey) =>
    figuresOf(w?.[key] ?? NO_ORDERS);
  const rows = DASHBOARD_WINDOWS.map((w) => ({
    key: w.key,
    label: w.label,
    ...windowOf(all, w.key),
  }));
  const lifetime = rows[0];

  const perReseller = new Map(
    groups.filter((g) => g.group === "reseller").map((g) => [g.key, g.windows]),
  );
  const hidden = new Set(
    [...exclusions.hiddenResellerNames, ...exclusions.excludedAccounts].map((n) =>
      n.trim().toLowerCase()
    ),
  );
  const resellers = resellerRows
    .filter((r) => !hidden.has(r.name.trim().toLowerCase()))
    .filter((r) => !r.deleted || perReseller.has(r.id))
    .map((r) => ({
      _id: r.id,
      name: r.name,
      balance: centsToDollars(r.balance_cents),
      lifetime: windowOf(perReseller.get(r.id), "lifetime"),
      past24Hours: windowOf(perReseller.get(r.id), "past24Hours"),
    }));

  const perPackage = new Map(
    groups.filter((g) => g.group === "package").map((g) => [g.key, g.windows]),
  );
  const packages = DASHBOARD_PACKAGES.map((p) => ({
    ...p,
    lifetime: windowOf(perPackage.get(p.package), "lifetime"),
    past24Hours: windowOf(perPackage.get(p.package), "past24Hours"),
  }));

  const revenueByDay = fillBuckets(days, firstDay, CHART_DAYS, DAY_MS, dayLabel);
  const ordersByHour = fillBuckets(hours, firstHour, CHART_HOURS, HOUR_MS, hourLabel);
  return {
    generatedAt: now.toISOString(),
    lifetimeStart: LIFETIME_START.toISOString(),
    totals: { orders: lifetime.orders, revenue: lifetime.revenue, profit: lifetime.profit },
    windows: rows,
    resellers,
    packages,
    revenueByDay,
    ordersByHour,
    exclusions,
    supplierBalances: balances,
  };
}
