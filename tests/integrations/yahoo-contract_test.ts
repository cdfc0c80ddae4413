// Yahoo Finance's recorded chart answers (tests/fixtures/yahoo/) read by the real FX client: the rate
// it returns, and how the error envelope is classified.

import assert from "node:assert/strict";
import {
  BROWSER_USER_AGENT,
  createYahooFinanceClient,
  USD_SGD_CHART_PATH,
} from "../../src/integrations/fx/client.ts";
import {
  readRecordedAnswer,
  serveRecordedAnswer,
  withRecordedAnswer,
} from "../helpers/recorded-answers.ts";

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
