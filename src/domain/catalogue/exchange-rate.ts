// The USD→SGD rate shown to resellers (spec §2 My Account, §9): the market rate from Yahoo Finance
// minus the admin's fxRateMarkUp, exact to 4 decimals.
//
// fxRateMarkUp has two readings in the spec (§3): "SGD cents per 1 USD" on the admin screen and a
// percent on the reseller page. We read it as SGD cents per 1 USD everywhere:
//   shown = market − fxRateMarkUp / 100
// The admin screen is where the number is typed and it names its unit in the field label, so an
// admin who enters 2 means 2 cents off each dollar; the reseller page only describes the result.
//
// The market rate is cached in the settings table (key fx_market_rate) so every app instance shares
// one copy and page views do not call Yahoo: refreshed when older than FX_CACHE_SECONDS, and when a
// refresh fails a copy younger than 24 h is served instead of an error.

import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { getSetting, putSetting } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { getYahooFinanceClient, type YahooFinanceClient } from "../../integrations/fx/client.ts";
import type { SupplierResult } from "../../integrations/fetch-json.ts";
import { ConflictError, UpstreamError, ValidationError } from "../errors.ts";
import { parseDecimal } from "../money.ts";

/** Settings key of the mark-up, in SGD cents per 1 USD. */
export const FX_MARK_UP_KEY = "fxRateMarkUp";
/** Settings key of the cached market rate, `{ rate, fetchedAt }`. */
export const FX_MARKET_RATE_KEY = "fx_market_rate";
/** Oldest cached market rate still served when Yahoo fails. */
export const MAX_STALE_MS = 24 * 60 * 60 * 1000;
/**
 * After a failed refresh, page views serve the stale copy without calling Yahoo for this long:
 * a Yahoo that is down or rate-limiting us is not hammered, and a slow one does not make every
 * page view wait for the timeout.
 */
export const RETRY_AFTER_FAILURE_MS = 60_000;
/** Decimals of the shown rate (spec §9: 4 on the account page). */
export const RATE_DECIMALS = 4;
/** Largest mark-up accepted, in SGD cents per 1 USD. */
export const MAX_MARK_UP_CENTS = 100_000;

/** The exchange-rate settings an admin edits and a reseller reads. */
export interface FxSettings {
  /** SGD cents taken off each USD of the market rate, at most 2 decimals. */
  fxRateMarkUp: number;
}

/** A market rate as cached: SGD per 1 USD as exact decimal text, and when it was fetched (ISO). */
export interface CachedMarketRate {
  rate: string;
  fetchedAt: string;
}

/** What GET /api/yahoo_finance/usd_sgd answers. */
export interface UsdSgdQuote {
  /** The rate shown to resellers, 4 decimals. */
  rate: number;
  /** SGD per 1 USD as Yahoo quoted it. */
  marketRate: number;
  /** SGD cents per 1 USD taken off. */
  fxRateMarkUp: number;
  /** When the market rate was fetched, ISO 8601. */
  fetchedAt: string;
}

/** Where the cached market rate lives; the settings table in the app, memory in unit tests. */
export interface MarketRateStore {
  read(): Promise<CachedMarketRate | undefined>;
  write(rate: CachedMarketRate): Promise<void>;
}

/** The market rate with its cache in front. */
export interface UsdSgdRates {
  /** The cached rate when fresh, else a new one from Yahoo (or the stale one if Yahoo fails). */
  marketRate(): Promise<CachedMarketRate>;
}

const MarkUpSchema = z.number({ error: "expected a number of SGD cents per 1 USD" })
  .min(0, { error: "must not be negative" })
  .lt(MAX_MARK_UP_CENTS, { error: `must be below ${MAX_MARK_UP_CENTS}` })
  // The value becomes SGD with 4 decimals, so cents with more than 2 would be rounded away.
  .refine((value) => /^\d+(\.\d{1,2})?$/.test(String(value)), {
    error: "must have at most 2 decimal places",
  });

/** The body of PUT /api/settings. */
export const FxSettingsSchema = z.object({ fxRateMarkUp: MarkUpSchema });

const CachedSchema = z.object({
  rate: z.string().regex(/^\d+(\.\d+)?$/),
  fetchedAt: z.iso.datetime(),
});

/**
 * The shown rate as text with 4 decimals: market − markUpCents / 100, computed on scaled integers
 * and rounded half up once, at the end (the market rate may carry more decimals than 4).
 */
export function applyMarkUp(marketRate: string, markUpCents: number): string {
  const market = parseDecimal(marketRate, { label: "market rate", maxDecimals: 20 });
  const markUp = parseDecimal(markUpCents, { label: FX_MARK_UP_KEY, maxDecimals: 2 });
  // Cents become SGD by two more decimal places.
  const scale = Math.max(market.scale, markUp.scale + 2, RATE_DECIMALS);
  const difference = market.units * 10n ** BigInt(scale - market.scale) -
    markUp.units * 10n ** BigInt(scale - markUp.scale - 2);
  const step = 10n ** BigInt(scale - RATE_DECIMALS);
  const magnitude = difference < 0n ? -difference : difference;
  const rounded = (magnitude + step / 2n) / step;
  const digits = String(rounded).padStart(RATE_DECIMALS + 1, "0");
  const sign = difference < 0n && rounded > 0n ? "-" : "";
  return `${sign}${digits.slice(0, -RATE_DECIMALS)}.${digits.slice(-RATE_DECIMALS)}`;
}

/** How usable a cached market rate is at `nowMs`. */
export function marketRateFreshness(
  cached: CachedMarketRate | undefined,
  nowMs: number,
  cacheSeconds: number,
): "fresh" | "stale" | "unusable" {
  if (cached === undefined) return "unusable";
  // Instances' clocks differ a little: a copy stamped slightly in the future counts as new.
  const age = Math.abs(nowMs - Date.parse(cached.fetchedAt));
  if (age < cacheSeconds * 1000) return "fresh";
  return age < MAX_STALE_MS ? "stale" : "unusable";
}

/** The spec §8 text for a rate that cannot be had. */
export function rateFailureMessage(reason: string): string {
  return `Fail to get Yahoo Finance rate, please try again. Error: ${reason}`;
}

/** The market rate cached in the settings table, shared by every app instance. */
export function settingsMarketRateStore(db: Db): MarketRateStore {
  return {
    async read() {
      const parsed = CachedSchema.safeParse(await getSetting(db, FX_MARKET_RATE_KEY));
      return parsed.success ? parsed.data : undefined;
    },
    async write(rate) {
      await putSetting(db, FX_MARKET_RATE_KEY, rate, "system");
    },
  };
}

/** Creates the cached market-rate source; `now` is injectable for tests. */
export function createUsdSgdRates(deps: {
  client: YahooFinanceClient;
  store: MarketRateStore;
  cacheSeconds: number;
  now?: () => number;
}): UsdSgdRates {
  const now = deps.now ?? Date.now;
  let lastFailureAt = Number.NEGATIVE_INFINITY;
  // Concurrent page views that find the cache expired share one call to Yahoo.
  let inFlight: Promise<SupplierResult<CachedMarketRate>> | null = null;

  async function refresh(): Promise<SupplierResult<CachedMarketRate>> {
    const result = await deps.client.usdSgdRate();
    if (!result.ok) return result;
    const fresh = { rate: result.value, fetchedAt: new Date(now()).toISOString() };
    await deps.store.write(fresh);
    return { ok: true, value: fresh };
  }

  return {
    async marketRate() {
      const cached = await deps.store.read();
      const freshness = marketRateFreshness(cached, now(), deps.cacheSeconds);
      if (freshness === "fresh") return cached!;
      if (freshness === "stale" && now() - lastFailureAt < RETRY_AFTER_FAILURE_MS) return cached!;
      inFlight ??= refresh().finally(() => {
        inFlight = null;
      });
      const result = await inFlight;
      if (result.ok) {
        lastFailureAt = Number.NEGATIVE_INFINITY;
        return result.value;
      }
      lastFailureAt = now();
      if (freshness === "stale") return cached!;
      throw new UpstreamError(rateFailureMessage(result.message));
    },
  };
}

const RATES_KEY = Symbol.for("topup.usd-sgd-rates");

/** The process-wide rate source over the configured Yahoo Finance (live or simulator). */
export function getUsdSgdRates(config: Config, db: Db): UsdSgdRates {
  const g = globalThis as { [RATES_KEY]?: UsdSgdRates };
  g[RATES_KEY] ??= createUsdSgdRates({
    client: getYahooFinanceClient(config),
    store: settingsMarketRateStore(db),
    cacheSeconds: config.fx.cacheSeconds,
  });
  return g[RATES_KEY];
}

/** The exchange-rate settings; a mark-up never set is 0. */
export async function readFxSettings(db: Db): Promise<FxSettings> {
  const stored = await getSetting<unknown>(db, FX_MARK_UP_KEY);
  return { fxRateMarkUp: stored === undefined ? 0 : MarkUpSchema.parse(stored) };
}

/** Saves the mark-up (0 ≤ value < 100000 SGD cents, 2 decimals at most) with an audit row. */
export async function saveFxSettings(
  db: Db,
  input: FxSettings,
  admin: { id: string; name: string },
): Promise<FxSettings> {
  const parsed = FxSettingsSchema.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(`${FX_MARK_UP_KEY}: ${parsed.error.issues[0].message}`);
  }
  const { fxRateMarkUp } = parsed.data;
  await db.transaction().execute(async (trx) => {
    const before = await readFxSettings(trx);
    await putSetting(trx, FX_MARK_UP_KEY, fxRateMarkUp, admin.name);
    await insertAudit(trx, {
      actorType: "admin",
      actorId: admin.id,
      actorName: admin.name,
      action: "settings.update",
      targetType: "settings",
      targetId: FX_MARK_UP_KEY,
      before,
      after: { fxRateMarkUp },
    });
  });
  return { fxRateMarkUp };
}

/** The rate shown to resellers now, with the market rate and mark-up it came from. */
export async function quoteUsdSgd(db: Db, rates: UsdSgdRates): Promise<UsdSgdQuote> {
  const { fxRateMarkUp } = await readFxSettings(db);
  const market = await rates.marketRate();
  const shown = applyMarkUp(market.rate, fxRateMarkUp);
  if (!/[1-9]/.test(shown) || shown.startsWith("-")) {
    throw new ConflictError(
      `The exchange rate mark-up (${fxRateMarkUp} SGD cents per 1 USD) is not below the market ` +
        `rate of ${market.rate} SGD; lower it in Settings`,
    );
  }
  return {
    rate: Number(shown),
    marketRate: Number(market.rate),
    fxRateMarkUp,
    fetchedAt: market.fetchedAt,
  };
}
