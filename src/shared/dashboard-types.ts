// What GET /api/dashboard answers (spec §2 Dashboard, §9): amounts in dollars as JSON numbers with
// two decimals, margin as a percent with two decimals, dates as ISO strings.

import type { SupplierBalanceDto } from "./operations-types.ts";

/** The figures of one row of a dashboard table. */
export interface DashboardFigures {
  orders: number;
  /** Revenue ÷ orders, to the cent. */
  averageOrder: number;
  revenue: number;
  cost: number;
  /** Revenue − cost. */
  profit: number;
  /** Profit ÷ revenue × 100, two decimals (0 when there is no revenue). */
  margin: number;
}

/** The windows of the Orders table, in its row order. */
export type DashboardWindowKey = "lifetime" | "past7Days" | "past24Hours" | "past8Hours";

export interface DashboardWindow extends DashboardFigures {
  key: DashboardWindowKey;
  /** 'Lifetime', 'Past 7 Days', 'Past 24 Hours', 'Past 8 Hours'. */
  label: string;
}

export interface DashboardReseller {
  _id: string;
  name: string;
  /** Current account balance in dollars. */
  balance: number;
  lifetime: DashboardFigures;
  past24Hours: DashboardFigures;
}

export interface DashboardPackage {
  /** mlbb_special, mlbb_global or mlbb. */
  package: string;
  /** 'MLBB Special', 'MLBB Global', 'MLBB'. */
  label: string;
  lifetime: DashboardFigures;
  past24Hours: DashboardFigures;
}

/** The settings that keep internal activity out of the figures (spec §6). */
export interface DashboardExclusions {
  /** Reseller accounts whose orders are not counted anywhere on the dashboard. */
  excludedAccounts: string[];
  /** Reseller names left out of the Resellers tables (their orders still count in the totals). */
  hiddenResellerNames: string[];
}

/** One point of a chart series. */
export interface DashboardBucket {
  /** The bucket's start, ISO 8601. */
  start: string;
  /** Its x-axis label in Singapore time: '23 Nov' for a day, '12 pm' for an hour. */
  label: string;
  orders: number;
  revenue: number;
  profit: number;
}

export interface Dashboard {
  /** When the figures were read, ISO 8601; the windows end here. */
  generatedAt: string;
  /** Orders before this are never counted (4 Apr 2025), ISO 8601. */
  lifetimeStart: string;
  /** The cards: Total Orders, Total Revenue, Total Profit (the Lifetime row). */
  totals: { orders: number; revenue: number; profit: number };
  windows: DashboardWindow[];
  resellers: DashboardReseller[];
  packages: DashboardPackage[];
  /** Revenue and profit per day, last 30 days, oldest first, one entry per day. */
  revenueByDay: DashboardBucket[];
  /** Orders per hour, last 24 hours, oldest first, one entry per hour. */
  ordersByHour: DashboardBucket[];
  exclusions: DashboardExclusions;
  /** Each supplier's prepaid balance with its week's trend. */
  supplierBalances: SupplierBalanceDto[];
}
