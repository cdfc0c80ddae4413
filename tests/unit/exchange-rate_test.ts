import assert from "node:assert/strict";
import {
  applyMarkUp,
  type CachedMarketRate,
  createUsdSgdRates,
  FxSettingsSchema,
  marketRateFreshness,
  type MarketRateStore,
  MAX_STALE_MS,
  rateFailureMessage,
  RETRY_AFTER_FAILURE_MS,
} from "../../src/domain/catalogue/exchange-rate.ts";
import { UpstreamError } from "../../src/domain/errors.ts";
import type { YahooFinanceClient } from "../../src/integrations/fx/client.ts";
import { failWith, type SupplierResult } from "../../src/integrations/fetch-json.ts";

const T0 = Date.parse("2025-01-05T07:04:00Z");
const CACHE_SECONDS = 900;

Deno.test("[fx] shown rate = market − mark-up cents / 100, exact to 4 decimals", () => {
  assert.equal(applyMarkUp("1.3456", 0), "1.3456");
  assert.equal(applyMarkUp("1.3456", 2), "1.3256");
  assert.equal(applyMarkUp("1.3456", 2.5), "1.3206");
  assert.equal(applyMarkUp("1.3456", 0.01), "1.3455");
  assert.equal(applyMarkUp("1.3", 10), "1.2000", "always 4 decimals");
  assert.equal(applyMarkUp("1.35", 35), "1.0000");
  // 0.1 + 0.2 style float noise would show here: 1.1 - 0.1 = 0.9999999999999999 in floats.
  assert.equal(applyMarkUp("1.1", 10), "1.0000");
  assert.equal(applyMarkUp("1234.5678", 99999.99), "234.5679");
});

Deno.test("[fx] a market rate with more than 4 decimals is rounded half up once, after the subtraction", () => {
  assert.equal(applyMarkUp("1.34565", 0), "1.3457");
  assert.equal(applyMarkUp("1.345649999", 0), "1.3456");
  assert.equal(applyMarkUp("1.3457000255584717", 1), "1.3357");
  assert.equal(applyMarkUp("1.34565", 0.5), "1.3407", "1.34065 rounds up");
});

Deno.test("[fx] a mark-up at or above the market rate gives zero or less, never a wrapped number", () => {
  assert.equal(applyMarkUp("1.3456", 134.56), "0.0000");
  assert.equal(applyMarkUp("1.3456", 200), "-0.6544");
});

Deno.test("[fx] the mark-up is SGD cents: 0 ≤ value < 100000 with at most 2 decimals", () => {
  for (const ok of [0, 2, 2.5, 0.01, 99999.99]) {
    assert.ok(FxSettingsSchema.safeParse({ fxRateMarkUp: ok }).success, String(ok));
  }
  for (const bad of [-1, 100000, 0.001, "2", null, Number.NaN]) {
    assert.ok(!FxSettingsSchema.safeParse({ fxRateMarkUp: bad }).success, String(bad));
  }
});

Deno.test("[fx] cache freshness: fresh under FX_CACHE_SECONDS, stale under 24 h, unusable after", () => {
  const at = (ms: number): CachedMarketRate => ({
    rate: "1.3456",
    fetchedAt: new Date(ms).toISOString(),
  });
  assert.equal(marketRateFreshness(undefined, T0, CACHE_SECONDS), "unusable");
  assert.equal(marketRateFreshness(at(T0), T0, CACHE_SECONDS), "fresh");
  assert.equal(marketRateFreshness(at(T0), T0 + 899_999, CACHE_SECONDS), "fresh");
  assert.equal(marketRateFreshness(at(T0), T0 + 900_000, CACHE_SECONDS), "stale");
  assert.equal(marketRateFreshness(at(T0), T0 + MAX_STALE_MS - 1, CACHE_SECONDS), "stale");
  assert.equal(marketRateFreshness(at(T0), T0 + MAX_STALE_MS, CACHE_SECONDS), "unusable");
  assert.equal(
    marketRateFreshness(at(T0 + 2_000), T0, CACHE_SECONDS),
    "fresh",
    "another instance's clock slightly ahead",
  );
  assert.equal(marketRateFreshness(at(T0), T0, 0), "stale", "FX_CACHE_SECONDS=0 always refreshes");
});

/** A Yahoo stand-in answering from a script, counting calls; `hold` delays answers. */
function scriptedClient(answers: SupplierResult<string>[]) {
  const client = {
    calls: 0,
    hold: null as Promise<void> | null,
    async usdSgdRate(): Promise<SupplierResult<string>> {
      client.calls += 1;
      if (client.hold) await client.hold;
      const answer = answers.shift();
      if (!answer) throw new Error("no scripted answer left");
      return answer;
    },
  };
  return client satisfies YahooFinanceClient;
}

function memoryStore(initial?: CachedMarketRate) {
  const store = {
    value: initial,
    writes: 0,
    read: () => Promise.resolve(store.value),
    write(rate: CachedMarketRate) {
      store.value = rate;
      store.writes += 1;
      return Promise.resolve();
    },
  };
  return store satisfies MarketRateStore;
}

function harness(answers: SupplierResult<string>[], initial?: CachedMarketRate) {
  let now = T0;
  const client = scriptedClient(answers);
  const store = memoryStore(initial);
  const rates = createUsdSgdRates({ client, store, cacheSeconds: CACHE_SECONDS, now: () => now });
  return {
    client,
    store,
    rates,
    advance(ms: number) {
      now += ms;
    },
  };
}

const ok = (rate: string): SupplierResult<string> => ({ ok: true, value: rate });
const down = failWith("timeout", "no answer from query1.finance.yahoo.com within 1000 ms");

Deno.test("[fx] a fresh cached rate is served without calling Yahoo; an expired one is refreshed and stored", async () => {
  const h = harness([ok("1.3456"), ok("1.3501")]);
  assert.deepEqual(await h.rates.marketRate(), {
    rate: "1.3456",
    fetchedAt: new Date(T0).toISOString(),
  });
  h.advance(CACHE_SECONDS * 1000 - 1);
  assert.equal((await h.rates.marketRate()).rate, "1.3456");
  assert.equal(h.client.calls, 1, "page views inside the cache window do not call out");
  h.advance(1);
  const refreshed = await h.rates.marketRate();
  assert.equal(refreshed.rate, "1.3501");
  assert.equal(refreshed.fetchedAt, new Date(T0 + CACHE_SECONDS * 1000).toISOString());
  assert.equal(h.client.calls, 2);
  assert.deepEqual(h.store.value, refreshed, "stored for the other instances");
});

Deno.test("[fx] a rate another instance stored is used as is", async () => {
  const h = harness([], { rate: "1.3399", fetchedAt: new Date(T0 - 60_000).toISOString() });
  assert.equal((await h.rates.marketRate()).rate, "1.3399");
  assert.equal(h.client.calls, 0);
});

Deno.test("[fx] Yahoo failing with a copy under 24 h serves the copy, and waits a minute before retrying", async () => {
  const h = harness([down, ok("1.3600")], {
    rate: "1.3456",
    fetchedAt: new Date(T0 - 2 * 60 * 60 * 1000).toISOString(),
  });
  assert.equal((await h.rates.marketRate()).rate, "1.3456");
  assert.equal(h.client.calls, 1);
  h.advance(RETRY_AFTER_FAILURE_MS - 1);
  assert.equal((await h.rates.marketRate()).rate, "1.3456");
  assert.equal(h.client.calls, 1, "no call during the back-off");
  h.advance(1);
  assert.equal((await h.rates.marketRate()).rate, "1.3600");
  assert.equal(h.client.calls, 2);
});

Deno.test("[fx] Yahoo failing with no copy, or one over 24 h old, fails with the spec text", async () => {
  for (
    const initial of [undefined, {
      rate: "1.3456",
      fetchedAt: new Date(T0 - MAX_STALE_MS).toISOString(),
    }]
  ) {
    const h = harness([down, down], initial);
    await assert.rejects(h.rates.marketRate(), (error: unknown) => {
      assert.ok(error instanceof UpstreamError);
      assert.equal(
        error.message,
        "Fail to get Yahoo Finance rate, please try again. Error: no answer from query1.finance.yahoo.com within 1000 ms",
      );
      return true;
    });
    await assert.rejects(
      h.rates.marketRate(),
      UpstreamError,
      "with nothing to serve, every try calls",
    );
    assert.equal(h.client.calls, 2);
    assert.equal(h.store.writes, 0, "a failure stores nothing");
  }
  assert.equal(
    rateFailureMessage("x"),
    "Fail to get Yahoo Finance rate, please try again. Error: x",
  );
});

Deno.test("[fx] a success after a failure ends the back-off: the next expiry refreshes at once", async () => {
  const h = harness([down, ok("1.3456"), ok("1.3501")]);
  await assert.rejects(h.rates.marketRate(), UpstreamError);
  assert.equal((await h.rates.marketRate()).rate, "1.3456");
  h.advance(CACHE_SECONDS * 1000);
  assert.equal((await h.rates.marketRate()).rate, "1.3501");
  assert.equal(h.client.calls, 3);
});

Deno.test("[fx] concurrent page views on an expired cache share one call to Yahoo", async () => {
  const h = harness([ok("1.3456")]);
  let release = () => {};
  h.client.hold = new Promise((resolve) => release = resolve);
  const views = Array.from({ length: 20 }, () => h.rates.marketRate());
  await new Promise((resolve) => setTimeout(resolve, 10));
  release();
  const results = await Promise.all(views);
  assert.equal(h.client.calls, 1);
  assert.ok(results.every((r) => r.rate === "1.3456"));
});
