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
import { setSupplierBalance } from "../../observability/metrics.ts";
import type { SupplierBalanceDto } from "../../shared/operations-types.ts";
import { centsToDollars, decimalToNearestCents } from "../money.ts";
import type { AlertSettings } from "./alert-settings.ts";

export type Vendor = SupplierBalanceDto["vendor"];

/** The suppliers whose balance is read, with how they are named and their threshold setting. */
export const VENDORS: { vendor: Vendor; name: string; threshold: keyof AlertSettings }[] = [
  { vendor: "moogold", name: "MooGold", threshold: "moogoldMinBalance" },
  { vendor: "elitedias", name: "EliteDias", threshold: "elitediasMinBalance" },
];

/**
 * EliteDias' balance answer names no currency; the account is funded in SGD (unconfirmed by its
 * documents, src/integrations/elitedias/client.ts).
 */
const ELITEDIAS_CURRENCY = "SGD";

/** What one reading gave: the balance in cents, or the supplier's error. */
export type BalanceReading =
  | { vendor: Vendor; ok: true; balanceCents: number; currency: string }
  | { vendor: Vendor; ok: false; error: string };

async function askBalance(suppliers: Suppliers, vendor: Vendor): Promise<BalanceReading> {
  if (vendor === "moogold") {
    const r = await suppliers.moogold.balance();
    return r.ok
      ? {
        vendor,
        ok: true,
        balanceCents: decimalToNearestCents(r.value.balance, "MooGold balance"),
        currency: r.value.currency,
      }
      : { vendor, ok: false, error: r.message };
  }
  const r = await suppliers.elitedias.balance();
  return r.ok
    ? {
      vendor,
      ok: true,
      balanceCents: decimalToNearestCents(r.value, "EliteDias balance"),
      currency: ELITEDIAS_CURRENCY,
    }
    : { vendor, ok: false, error: r.message };
}

/** Reads every supplier's balance and stores each reading that came back. */
export async function readSupplierBalances(
  db: Db,
  suppliers: Suppliers,
): Promise<BalanceReading[]> {
  const readings = await Promise.all(
    VENDORS.map(({ vendor }) =>
      askBalance(suppliers, vendor).catch((error): BalanceReading => ({
        vendor,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }))
    ),
  );
  for (const reading of readings) {
    if (!reading.ok) continue;
    await insertBalanceReading(db, reading);
    setSupplierBalance(reading.vendor, centsToDollars(reading.balanceCents));
  }
  return readings;
}

const TREND_DAYS = 7;
const DAY_MS = 86_400_000;

function balanceView(
  vendor: (typeof VENDORS)[number],
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
    currency: latest?.currency ?? (vendor.vendor === "moogold" ? "USD" : ELITEDIAS_CURRENCY),
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
