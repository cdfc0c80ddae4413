// Supplier balances: each supplier's prepaid balance is read on the operations watch's
// schedule and kept, so the dashboard and the operations screen show it with its trend. When it
// runs out, every order at that supplier fails and is refunded: the low-balance alert
// (alerts.ts) is the operator's warning.

import type { Db } from "../../db/client.ts";
import {
  type BalanceReadingRow,
  insertBalanceReading,
  listHourlyBalanceReadings,
} from "../../db/repositories/operations.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { SupplierPort } from "../../integrations/supplier-port.ts";
import { SUPPLIER_PROFILES, supplierPorts } from "../../integrations/supplier-registry.ts";
import { setSupplierBalance } from "../../observability/metrics.ts";
import type { SupplierBalanceDto } from "../../shared/operations-types.ts";
import { centsToDollars, decimalToNearestCents } from "../money.ts";
import { type AlertSettings, minBalanceSettingOf } from "./alert-settings.ts";

export type Vendor = SupplierBalanceDto["vendor"];

/** A supplier whose balance is read: how it is named, and its threshold setting. */
export interface BalanceVendor {
  vendor: Vendor;
  name: string;
  currency: string;
  threshold: keyof AlertSettings;
}

/** Every registered supplier, with the alert setting that holds its lowest balance. */
export const VENDORS: BalanceVendor[] = SUPPLIER_PROFILES.map((p) => ({
  vendor: p.vendor,
  name: p.name,
  currency: p.balanceCurrency,
  threshold: minBalanceSettingOf(p.vendor),
}));

/** What one reading gave: the balance in cents, or the supplier's error. */
export type BalanceReading =
  | { vendor: Vendor; ok: true; balanceCents: number; currency: string }
  | { vendor: Vendor; ok: false; error: string };

async function askBalance(port: SupplierPort): Promise<BalanceReading> {
  const r = await port.readBalance();
  return r.ok
    ? {
      vendor: port.vendor,
      ok: true,
      balanceCents: decimalToNearestCents(r.balance, `${port.name} balance`),
      currency: r.currency,
    }
    : { vendor: port.vendor, ok: false, error: r.error };
}

/** Reads every supplier's balance and stores each reading that came back. */
export async function readSupplierBalances(
  db: Db,
  suppliers: Suppliers,
): Promise<BalanceReading[]> {
  const readings = await Promise.all(
    supplierPorts(suppliers).map((port) =>
      askBalance(port).catch((error): BalanceReading => ({
        vendor: port.vendor,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }))
    ),
  );
  for (const reading of readings) {
    if (!reading.ok) continue;
    await insertBalanceReading(db, reading);
    setSupplierBalance(reading.vendor, reading.currency, centsToDollars(reading.balanceCents));
  }
  return readings;
}

const TREND_DAYS = 7;
const DAY_MS = 86_400_000;

function balanceView(
  vendor: BalanceVendor,
  rows: BalanceReadingRow[],
  settings: AlertSettings,
): SupplierBalanceDto {
  const latest = rows.at(-1);
  const threshold = settings[vendor.threshold];
  const dayBefore = latest &&
    rows.findLast((r) => r.read_at.getTime() <= latest.read_at.getTime() - DAY_MS);
  return {
    vendor: vendor.vendor,
    name: vendor.name,
    currency: latest?.currency ?? vendor.currency,
    balance: latest ? centsToDollars(latest.balance_cents) : null,
    readAt: latest?.read_at.toISOString() ?? null,
    change24h: latest && dayBefore
      ? centsToDollars(latest.balance_cents - dayBefore.balance_cents)
      : null,
    threshold,
    low: latest !== undefined && latest.balance_cents < Math.round(threshold * 100),
    trend: rows.map((r) => ({
      at: r.read_at.toISOString(),
      balance: centsToDollars(r.balance_cents),
    })),
  };
}

/** Every supplier's latest balance with its week's trend (one point an hour) and threshold. */
export async function supplierBalances(
  db: Db,
  settings: AlertSettings,
  now = new Date(),
): Promise<SupplierBalanceDto[]> {
  const since = new Date(now.getTime() - TREND_DAYS * DAY_MS);
  return await Promise.all(
    VENDORS.map(async (vendor) =>
      balanceView(vendor, await listHourlyBalanceReadings(db, vendor.vendor, since), settings)
    ),
  );
}
