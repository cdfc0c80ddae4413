// A local Yahoo Finance chart API speaking the wire format of external-apis.md §4, for SGD=X only:
// a settable rate, the error shape for unknown symbols, the bot check on User-Agent, and the
// shared fault knobs (error, timeout, malformed).

import {
  createFaultGate,
  routeAfterBase,
  type SimulatorFaultLevers,
  type SimulatorKnobs,
} from "../simulator-kit.ts";

/** How to build a Yahoo Finance simulator; every field has a default. */
export interface YahooFinanceSimulatorOptions {
  /** Path prefix the handler is mounted under, e.g. "/__sim/yahoo". */
  basePath?: string;
  knobs?: Partial<SimulatorKnobs>;
  /** Seed of the random fault draws. */
  seed?: number;
  /** Starting SGD per 1 USD, as decimal text. */
  rate?: string;
  /** Clock, ms since epoch. */
  now?: () => number;
}

/** An in-memory Yahoo Finance: its handler, live knobs, fault levers and rate levers. */
export interface YahooFinanceSimulator extends SimulatorFaultLevers {
  handler: (request: Request) => Promise<Response>;
  /** Sets the SGD per 1 USD the next answers carry, e.g. "1.3512". */
  setRate(rate: string): void;
  /** Drops meta.regularMarketPrice from answers, as Yahoo sometimes does; clients read close[]. */
  omitMarketPrice(omit: boolean): void;
}

/** The rate a fresh simulator quotes. */
export const YAHOO_SIMULATOR_RATE = "1.3456";

/** The fault endpoint name of the chart call (for forceNext and failEndpoint). */
export const YAHOO_CHART_ENDPOINT = "chart";

const CHART_PREFIX = "v8/finance/chart/";
const SYMBOL = "SGD=X";
const QUOTES = 5;
const DAY_SECONDS = 86_400;
// EURUSD=X's firstTradeDate in the recorded chart (2003-12-01); SGD=X's is not recorded.
const FIRST_TRADE_DATE = 1_070_236_800;
const VALID_RANGES = ["1d", "5d", "1mo", "3mo", "6mo", "1y", "2y", "5y", "10y", "ytd", "max"];

/** Yahoo's error envelope: `{"chart":{"result":null,"error":{...}}}`. */
function chartError(status: number, code: string, description: string): Response {
  return Response.json({ chart: { result: null, error: { code, description } } }, { status });
}

/** Creates an in-memory Yahoo Finance quoting SGD=X. */
export function createYahooFinanceSimulator(
  options: YahooFinanceSimulatorOptions = {},
): YahooFinanceSimulator {
  const basePath = options.basePath ?? "";
  const now = options.now ?? Date.now;
  const gate = createFaultGate(options);
  let rate = options.rate ?? YAHOO_SIMULATOR_RATE;
  let withMarketPrice = true;

  function chart(): Response {
    const price = Number(rate);
    const minute = Math.floor(now() / 60_000) * 60;
    const day = Math.floor(minute / DAY_SECONDS) * DAY_SECONDS;
    // A day's minute quotes ending on the rate, then the still-open minute with no quotes yet.
    const timestamps = Array.from({ length: QUOTES + 1 }, (_, i) => minute - (QUOTES - i) * 60);
    const earlier = Number((price * 1.001).toFixed(4));
    const close = [...Array.from({ length: QUOTES - 1 }, () => earlier), price, null];
    const volume = close.map((quote) => quote === null ? null : 0);
    const period = (start: number, end: number) => ({ timezone: "GMT", start, end, gmtoffset: 0 });
    const dayEnd = day + DAY_SECONDS - 60;
    // The meta of a recorded currency-pair chart (tests/fixtures/yahoo/chart-success.json), key
    // for key; the values that are not the rate are plausible constants.
    return Response.json({
      chart: {
        result: [{
          meta: {
            currency: "SGD",
            symbol: SYMBOL,
            exchangeName: "CCY",
            fullExchangeName: "CCY",
            instrumentType: "CURRENCY",
            firstTradeDate: FIRST_TRADE_DATE,
            regularMarketTime: minute,
            hasPrePostMarketData: false,
            gmtoffset: 0,
            timezone: "GMT",
            exchangeTimezoneName: "Europe/London",
            ...(withMarketPrice ? { regularMarketPrice: price } : {}),
            fiftyTwoWeekHigh: Number((price * 1.05).toFixed(4)),
            fiftyTwoWeekLow: Number((price * 0.95).toFixed(4)),
            regularMarketDayHigh: Math.max(price, earlier),
            regularMarketDayLow: Math.min(price, earlier),
            regularMarketVolume: 0,
            longName: "USD/SGD",
            shortName: "USD/SGD",
            chartPreviousClose: earlier,
            priceHint: 4,
            currentTradingPeriod: {
              pre: period(day, day),
              regular: period(day, dayEnd),
              post: period(dayEnd, dayEnd),
            },
            dataGranularity: "1m",
            range: "1d",
            validRanges: VALID_RANGES,
          },
          timestamp: timestamps,
          indicators: { quote: [{ open: close, high: close, low: close, close, volume }] },
        }],
        error: null,
      },
    });
  }

  async function handler(request: Request): Promise<Response> {
    const path = routeAfterBase(request, basePath);
    if (path === null || !path.startsWith(CHART_PREFIX)) {
      return chartError(404, "Not Found", "HTTP 404 Not Found");
    }
    if (request.method !== "GET") {
      return chartError(405, "Method Not Allowed", "HTTP 405 Method Not Allowed");
    }
    // Yahoo answers library User-Agents with a bare 429, which is why clients send a browser's.
    if (!(request.headers.get("user-agent") ?? "").startsWith("Mozilla/")) {
      return new Response("Too Many Requests\r\n", {
        status: 429,
        headers: { "content-type": "text/plain" },
      });
    }
    if (decodeURIComponent(path.slice(CHART_PREFIX.length)) !== SYMBOL) {
      return chartError(404, "Not Found", "No data found, symbol may be delisted");
    }
    const fault = await gate.pass(
      request,
      YAHOO_CHART_ENDPOINT,
      () => chartError(500, "Internal Server Error", "Simulated Yahoo Finance failure"),
    );
    return fault ?? chart();
  }

  return {
    handler,
    ...gate.levers,
    setRate(next) {
      if (!/^\d+(\.\d+)?$/.test(next) || Number(next) <= 0) {
        throw new RangeError(`rate must be a positive decimal such as 1.3456, got "${next}"`);
      }
      rate = next;
    },
    omitMarketPrice(omit) {
      withMarketPrice = !omit;
    },
  };
}
