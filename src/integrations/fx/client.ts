// Yahoo Finance chart API client for the USD→SGD market rate. Wire format:
// shared/reference/external-apis.md §4. The endpoint is unofficial and unauthenticated; it answers
// bots with 429s, so every request carries a browser-like User-Agent, as every public client does.

import { z } from "zod";
import type { Config } from "../../config.ts";
import {
  decimalText,
  describeIssues,
  failWith,
  fetchJson,
  type SupplierResult,
} from "../fetch-json.ts";
import { internalBaseUrl } from "../suppliers.ts";

/** How to reach Yahoo Finance. */
export interface YahooFinanceClientOptions {
  /** e.g. https://query1.finance.yahoo.com (a trailing slash is optional). */
  baseUrl: string;
  /** Upper bound for one call, connect to last body byte. */
  timeoutMs: number;
  /** Sent as User-Agent; Yahoo refuses the default ones of HTTP libraries. */
  userAgent: string;
}

/** The Yahoo Finance calls the app makes. */
export interface YahooFinanceClient {
  /** SGD per 1 USD (symbol SGD=X), as exact decimal text, e.g. "1.3456". */
  usdSgdRate(): Promise<SupplierResult<string>>;
}

/** A desktop Chrome User-Agent; any "Mozilla/5.0 …" string gets past Yahoo's bot check. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** The chart path of the USD→SGD pair, relative to the base URL. */
export const USD_SGD_CHART_PATH = "/v8/finance/chart/SGD=X";

/** Where the app mounts the Yahoo Finance simulator when FX_MODE is simulator. */
export const YAHOO_SIMULATOR_PATH = "/__sim/yahoo";

const ErrorSchema = z.object({
  chart: z.object({
    error: z.object({ code: z.string(), description: z.string().nullish() }),
  }),
});

// A rate of 0 is not a rate: Yahoo sends it for halted symbols, and it would divide the margin.
const rate = decimalText.refine((text) => /[1-9]/.test(text), { error: "expected a rate above 0" });

const ChartSchema = z.object({
  chart: z.object({
    result: z.array(z.object({
      meta: z.object({ regularMarketPrice: z.unknown().optional() }),
      indicators: z.object({
        quote: z.array(z.object({ close: z.array(z.unknown()).nullish() })),
      }).nullish(),
    })).min(1),
  }),
});

/**
 * The rate of one chart result: meta.regularMarketPrice, else the last non-null close of the
 * day's quotes (some answers omit the meta price outside trading hours).
 */
function readRate(result: z.output<typeof ChartSchema>["chart"]["result"][number]) {
  const price = result.meta.regularMarketPrice;
  if (price !== undefined && price !== null) return rate.safeParse(price);
  const closes = result.indicators?.quote[0]?.close ?? [];
  const last = closes.findLast((value) => value !== null && value !== undefined);
  return rate.safeParse(last);
}

/** Creates a Yahoo Finance client; no call is made until a method is used. */
export function createYahooFinanceClient(options: YahooFinanceClientOptions): YahooFinanceClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}${USD_SGD_CHART_PATH}?range=1d&interval=1m`;
  const headers = { "User-Agent": options.userAgent, "Accept": "application/json" };

  return {
    async usdSgdRate() {
      const answer = await fetchJson(url, { method: "GET", headers }, options.timeoutMs, {
        vendor: "yahoo-finance",
        endpoint: "usd-sgd-chart",
      });
      if (!answer.ok) return answer;
      const { status, json } = answer.value;
      // Yahoo reports its own errors (unknown symbol, bad range) in chart.error, usually with 404/400.
      const refusal = ErrorSchema.safeParse(json);
      if (refusal.success) {
        const { code, description } = refusal.data.chart.error;
        return failWith(
          "supplier",
          `Yahoo Finance: ${code}: ${description ?? "no description"}`,
          code,
        );
      }
      if (status < 200 || status > 299) {
        return failWith("http", `HTTP ${status} from Yahoo Finance`, String(status));
      }
      const chart = ChartSchema.safeParse(json);
      if (!chart.success) {
        return failWith("malformed", `Yahoo Finance chart: ${describeIssues(chart.error)}`);
      }
      const parsed = readRate(chart.data.chart.result[0]);
      if (!parsed.success) {
        return failWith(
          "malformed",
          `Yahoo Finance chart has no rate: ${describeIssues(parsed.error)}`,
        );
      }
      return { ok: true, value: parsed.data };
    },
  };
}

const CLIENT_KEY = Symbol.for("topup.yahoo-finance");

/** A client of Yahoo Finance (or its simulator) at `baseUrl`. */
function yahooFinanceClientAt(config: Config, baseUrl: string): YahooFinanceClient {
  return createYahooFinanceClient({
    baseUrl,
    timeoutMs: config.supplierTimeoutMs,
    userAgent: BROWSER_USER_AGENT,
  });
}

/** The client of live Yahoo Finance at config.fx.baseUrl. */
export function createLiveYahooFinanceClient(config: Config): YahooFinanceClient {
  return yahooFinanceClientAt(config, config.fx.baseUrl);
}

/** The process-wide client: live Yahoo Finance, or the simulator mounted on this server. */
export function getYahooFinanceClient(config: Config): YahooFinanceClient {
  const g = globalThis as { [CLIENT_KEY]?: YahooFinanceClient };
  g[CLIENT_KEY] ??= config.fx.mode === "live"
    ? createLiveYahooFinanceClient(config)
    : yahooFinanceClientAt(config, `${internalBaseUrl()}${YAHOO_SIMULATOR_PATH}`);
  return g[CLIENT_KEY];
}
