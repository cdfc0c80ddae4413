import assert from "node:assert/strict";
import {
  BROWSER_USER_AGENT,
  createYahooFinanceClient,
  type YahooFinanceClient,
  type YahooFinanceClientOptions,
} from "../../src/integrations/fx/client.ts";
import {
  createYahooFinanceSimulator,
  YAHOO_CHART_ENDPOINT,
  YAHOO_SIMULATOR_RATE,
  type YahooFinanceSimulator,
} from "../../src/integrations/fx/simulator.ts";
import { type SupplierResult } from "../../src/integrations/fetch-json.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const BASE_PATH = "/__sim/yahoo";

async function withYahoo(
  run: (
    h: { sim: YahooFinanceSimulator; client: YahooFinanceClient; url: string },
  ) => Promise<void>,
  client: Partial<YahooFinanceClientOptions> = {},
): Promise<void> {
  const sim = createYahooFinanceSimulator({ basePath: BASE_PATH, knobs: { holdMs: 5_000 } });
  const server = startSimulatorServer(sim.handler);
  try {
    await run({
      sim,
      url: server.url,
      client: createYahooFinanceClient({
        baseUrl: `${server.url}${BASE_PATH}`,
        timeoutMs: 2_000,
        userAgent: BROWSER_USER_AGENT,
        ...client,
      }),
    });
  } finally {
    await server.close();
  }
}

function failure<T>(result: SupplierResult<T>) {
  if (result.ok) assert.fail(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

Deno.test("[yahoo] the rate is meta.regularMarketPrice as exact decimal text", async () => {
  await withYahoo(async ({ sim, client }) => {
    assert.deepEqual(await client.usdSgdRate(), { ok: true, value: YAHOO_SIMULATOR_RATE });
    sim.setRate("1.35125");
    assert.deepEqual(await client.usdSgdRate(), { ok: true, value: "1.35125" });
  });
});

Deno.test("[yahoo] without regularMarketPrice the rate is the last non-null close", async () => {
  await withYahoo(async ({ sim, client, url }) => {
    sim.omitMarketPrice(true);
    const raw = await (await fetch(`${url}${BASE_PATH}/v8/finance/chart/SGD=X`, {
      headers: { "User-Agent": BROWSER_USER_AGENT },
    })).json();
    const result = raw.chart.result[0];
    assert.equal(result.meta.regularMarketPrice, undefined);
    assert.equal(result.indicators.quote[0].close.at(-1), null, "the open minute has no close");
    assert.notEqual(result.indicators.quote[0].close[0], 1.3456, "earlier closes differ");
    assert.deepEqual(await client.usdSgdRate(), { ok: true, value: "1.3456" });
  });
});

Deno.test("[yahoo] the simulator answers unknown symbols with Yahoo's 404 error shape", async () => {
  await withYahoo(async ({ url }) => {
    const response = await fetch(`${url}${BASE_PATH}/v8/finance/chart/XYZ=X?range=1d`, {
      headers: { "User-Agent": BROWSER_USER_AGENT },
    });
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      chart: {
        result: null,
        error: { code: "Not Found", description: "No data found, symbol may be delisted" },
      },
    });
  });
});

Deno.test("[yahoo] an error body is a supplier error carrying Yahoo's code and description", async () => {
  await withYahoo(async ({ sim, client }) => {
    sim.forceNext("error", 1, YAHOO_CHART_ENDPOINT);
    const result = failure(await client.usdSgdRate());
    assert.equal(result.kind, "supplier");
    assert.equal(result.code, "Internal Server Error");
    assert.equal(
      result.message,
      "Yahoo Finance: Internal Server Error: Simulated Yahoo Finance failure",
    );
  });
});

Deno.test("[yahoo] a 404 in Yahoo's error shape is a supplier error, not malformed", async () => {
  await withYahoo(async ({ url }) => {
    const client = createYahooFinanceClient({
      baseUrl: `${url}${BASE_PATH}/moved`,
      timeoutMs: 2_000,
      userAgent: BROWSER_USER_AGENT,
    });
    const result = failure(await client.usdSgdRate());
    assert.equal(result.kind, "supplier");
    assert.equal(result.code, "Not Found");
  });
});

Deno.test("[yahoo] a request without a browser User-Agent is refused, as Yahoo's bot check does", async () => {
  await withYahoo(async ({ client }) => {
    const result = failure(await client.usdSgdRate());
    assert.equal(result.kind, "http");
    assert.equal(result.code, "429");
  }, { userAgent: "Deno/2" });
});

Deno.test("[yahoo] no answer within timeoutMs is a timeout, not a hang", async () => {
  await withYahoo(async ({ sim, client }) => {
    sim.forceNext("timeout");
    const started = Date.now();
    const result = failure(await client.usdSgdRate());
    assert.equal(result.kind, "timeout");
    assert.match(result.message, /within 300 ms/);
    assert.ok(Date.now() - started < 2_000);
  }, { timeoutMs: 300 });
});

Deno.test("[yahoo] an HTML page with status 200 is malformed; the next call recovers", async () => {
  await withYahoo(async ({ sim, client }) => {
    sim.forceNext("malformed");
    const result = failure(await client.usdSgdRate());
    assert.equal(result.kind, "malformed");
    assert.match(result.message, /not JSON/);
    assert.deepEqual(await client.usdSgdRate(), { ok: true, value: "1.3456" });
  });
});

Deno.test("[yahoo] JSON without a usable rate is malformed, never a rate of 0 or NaN", async () => {
  const bodies = [
    { chart: { result: [], error: null } },
    { chart: { result: [{ meta: { regularMarketPrice: 0 } }], error: null } },
    { chart: { result: [{ meta: { regularMarketPrice: "n/a" } }], error: null } },
    { chart: { result: [{ meta: {}, indicators: { quote: [{ close: [null, null] }] } }] } },
  ];
  for (const body of bodies) {
    const server = startSimulatorServer(() => Promise.resolve(Response.json(body)));
    try {
      const client = createYahooFinanceClient({
        baseUrl: server.url,
        timeoutMs: 1_000,
        userAgent: BROWSER_USER_AGENT,
      });
      assert.equal(failure(await client.usdSgdRate()).kind, "malformed", JSON.stringify(body));
    } finally {
      await server.close();
    }
  }
});

Deno.test("[yahoo] an unreachable host is a network failure", async () => {
  const client = createYahooFinanceClient({
    baseUrl: "http://127.0.0.1:9",
    timeoutMs: 1_000,
    userAgent: BROWSER_USER_AGENT,
  });
  assert.equal(failure(await client.usdSgdRate()).kind, "network");
});
