// Yahoo Finance's recorded chart answers (tests/fixtures/yahoo/) read by the real FX client (the rate
// it returns, how the error envelope is classified), and the simulator answering in their shapes.

import assert from "node:assert/strict";
import {
  BROWSER_USER_AGENT,
  createYahooFinanceClient,
  USD_SGD_CHART_PATH,
} from "../../src/integrations/fx/client.ts";
import {
  createYahooFinanceSimulator,
  type YahooFinanceSimulator,
} from "../../src/integrations/fx/simulator.ts";
import {
  readRecordedAnswer,
  serveRecordedAnswer,
  withRecordedAnswer,
} from "../helpers/recorded-answers.ts";
import { assertSameWireShape } from "../helpers/wire-shape.ts";

function yahooAt(url: string) {
  return createYahooFinanceClient({
    baseUrl: url,
    timeoutMs: 2_000,
    userAgent: BROWSER_USER_AGENT,
  });
}

Deno.test("[yahoo contract] the rate is meta.regularMarketPrice of the recorded chart", async () => {
  await withRecordedAnswer("yahoo", "chart-success", async ({ url, requests }) => {
    assert.deepEqual(await yahooAt(url).usdSgdRate(), { ok: true, value: "1.0436" });
    assert.equal(requests[0].method, "GET");
    assert.equal(requests[0].pathname, USD_SGD_CHART_PATH);
  });
});

Deno.test("[yahoo contract] without regularMarketPrice the rate is the last non-null close", async () => {
  await withRecordedAnswer("yahoo", "chart-without-market-price", async ({ url }) => {
    assert.deepEqual(await yahooAt(url).usdSgdRate(), { ok: true, value: "1.1171437501907349" });
  });
});

Deno.test("[yahoo contract] the Not Found envelope is a supplier error, with HTTP 404 or 200", async () => {
  const notFound = readRecordedAnswer("yahoo", "chart-not-found");
  for (const status of [notFound.status, 200]) {
    const server = serveRecordedAnswer({ ...notFound, status });
    try {
      assert.deepEqual(await yahooAt(server.url).usdSgdRate(), {
        ok: false,
        kind: "supplier",
        message: "Yahoo Finance: Not Found: No data found, symbol may be delisted",
        code: "Not Found",
      }, `HTTP ${status}`);
    } finally {
      await server.close();
    }
  }
});

async function askSimulator(sim: YahooFinanceSimulator, symbol: string) {
  const response = await sim.handler(
    new Request(`http://simulator.test/v8/finance/chart/${symbol}?range=1d&interval=1m`, {
      headers: { "User-Agent": BROWSER_USER_AGENT, "Accept": "application/json" },
    }),
  );
  return { status: response.status, body: await response.json() };
}

// The recorded chart was asked with interval=1d, which adds adjclose; the app asks for 1m bars.
const DAILY_ONLY = ["$.chart.result[].indicators.adjclose"];
// The simulator's 1m answer ends on a bar still open, whose quotes are null.
const OPEN_BAR = ["open", "high", "low", "close", "volume"].map((quote) =>
  `$.chart.result[].indicators.quote[].${quote}[]`
);

Deno.test("[yahoo simulator] the chart answers are in the shape of the recorded ones", async (t) => {
  const sim = createYahooFinanceSimulator();
  await t.step("chart-success", async () => {
    const recorded = readRecordedAnswer("yahoo", "chart-success");
    const answer = await askSimulator(sim, "SGD=X");
    assert.equal(answer.status, recorded.status);
    assertSameWireShape(answer.body, recorded.body, {
      optional: DAILY_ONLY,
      nullable: OPEN_BAR,
    });
  });
  await t.step("chart-without-market-price", async () => {
    const recorded = readRecordedAnswer("yahoo", "chart-without-market-price");
    sim.omitMarketPrice(true);
    const answer = await askSimulator(sim, "SGD=X");
    sim.omitMarketPrice(false);
    assert.equal(answer.status, recorded.status);
    assertSameWireShape(answer.body, recorded.body, { optional: DAILY_ONLY });
  });
  await t.step("chart-not-found", async () => {
    const recorded = readRecordedAnswer("yahoo", "chart-not-found");
    const answer = await askSimulator(sim, "XYZ=X");
    assert.equal(answer.status, recorded.status);
    assert.deepEqual(answer.body, recorded.body);
  });
});
