import assert from "node:assert/strict";
import { createMoogoldClient } from "../../src/integrations/moogold/client.ts";
import {
  createMoogoldSimulator,
  MOOGOLD_SIMULATOR_CREDENTIALS,
  type MoogoldSimulatorOptions,
} from "../../src/integrations/moogold/simulator.ts";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
} from "../../src/integrations/elitedias/simulator.ts";
import { type SupplierResult } from "../../src/integrations/fetch-json.ts";
import {
  knobsFromEnv,
  type SimulatorServer,
  startSimulatorServer,
} from "../../src/integrations/simulator-kit.ts";

const MLBB = 15145;

async function withServer<T extends { handler: (r: Request) => Promise<Response> }>(
  sim: T,
  run: (server: SimulatorServer, sim: T) => Promise<void>,
): Promise<void> {
  const server = startSimulatorServer(sim.handler);
  try {
    await run(server, sim);
  } finally {
    await server.close();
  }
}

function moogoldAt(url: string, timeoutMs = 2_000) {
  return createMoogoldClient({ baseUrl: url, ...MOOGOLD_SIMULATOR_CREDENTIALS, timeoutMs });
}

function elitediasAt(url: string, timeoutMs = 2_000) {
  return createElitediasClient({
    baseUrl: url,
    checkIdUrl: `${url}/checkid`,
    apiKey: ELITEDIAS_SIMULATOR_API_KEY,
    origin: "https://shop.example",
    timeoutMs,
  });
}

function kindOf(result: SupplierResult<unknown>): string {
  return result.ok ? "ok" : result.kind;
}

function moogold(options: MoogoldSimulatorOptions = {}) {
  return createMoogoldSimulator(options);
}

Deno.test("[moogold] a forced timeout gives a timeout error within the client's timeout", async () => {
  await withServer(moogold(), async (server, sim) => {
    sim.forceNext("timeout");
    const client = moogoldAt(server.url, 150);
    const started = performance.now();
    const result = await client.balance();
    assert.equal(kindOf(result), "timeout");
    assert.ok(performance.now() - started < 2_000, "the client gave up, the simulator held");
    assert.equal(kindOf(await client.balance()), "ok", "only the next call was forced");
  });
});

Deno.test("[moogold] a forced malformed answer gives a malformed error", async () => {
  await withServer(moogold(), async (server, sim) => {
    sim.forceNext("malformed");
    const result = await moogoldAt(server.url).productDetail(MLBB);
    assert.equal(kindOf(result), "malformed");
  });
});

Deno.test("[moogold] a forced error gives a supplier error with MooGold's err_code", async () => {
  await withServer(moogold(), async (server, sim) => {
    sim.forceNext("error", 2);
    const client = moogoldAt(server.url);
    for (let i = 0; i < 2; i++) {
      const result = await client.balance();
      assert.equal(kindOf(result), "supplier");
      assert.equal(!result.ok && result.code, "500");
    }
    assert.equal(kindOf(await client.balance()), "ok");
  });
});

Deno.test("[moogold] failEndpoint breaks only that endpoint until cleared", async () => {
  await withServer(moogold(), async (server, sim) => {
    sim.failEndpoint("product/product_detail", "error");
    const client = moogoldAt(server.url);
    assert.equal(kindOf(await client.productDetail(MLBB)), "supplier");
    assert.equal(kindOf(await client.productDetail(MLBB)), "supplier");
    assert.equal(kindOf(await client.listProducts(50)), "ok");
    sim.failEndpoint("product/product_detail", null);
    assert.equal(kindOf(await client.productDetail(MLBB)), "ok");
  });
});

Deno.test("[moogold] forceNext aimed at one endpoint leaves the others alone", async () => {
  await withServer(moogold(), async (server, sim) => {
    sim.forceNext("malformed", 1, "product/server_list");
    const client = moogoldAt(server.url);
    assert.equal(kindOf(await client.balance()), "ok");
    assert.equal(kindOf(await client.serverList(MLBB)), "malformed");
    assert.equal(kindOf(await client.serverList(MLBB)), "ok");
  });
});

Deno.test("[moogold] latency longer than the client timeout is a timeout", async () => {
  await withServer(moogold({ knobs: { latencyMs: 1_000 } }), async (server) => {
    assert.equal(kindOf(await moogoldAt(server.url, 100).balance()), "timeout");
  });
});

Deno.test("[moogold] SIM_MOOGOLD_TIMEOUT_RATE=1 from the environment makes every call time out", async () => {
  const knobs = knobsFromEnv("SIM_MOOGOLD", { SIM_MOOGOLD_TIMEOUT_RATE: "1" });
  await withServer(moogold({ knobs }), async (server) => {
    assert.equal(kindOf(await moogoldAt(server.url, 100).balance()), "timeout");
  });
});

Deno.test("[moogold] fault rates replay identically for the same seed", async () => {
  async function pattern(seed: number): Promise<string[]> {
    const kinds: string[] = [];
    const sim = moogold({ seed, knobs: { errorRate: 0.3, malformedRate: 0.3 } });
    await withServer(sim, async (server) => {
      const client = moogoldAt(server.url);
      for (let i = 0; i < 20; i++) kinds.push(kindOf(await client.balance()));
    });
    return kinds;
  }
  const first = await pattern(7);
  assert.deepEqual(await pattern(7), first);
  for (const kind of ["ok", "supplier", "malformed"]) assert.ok(first.includes(kind), kind);
});

Deno.test("[moogold] an unreachable server is a network error that says why", async () => {
  const server = startSimulatorServer(moogold().handler);
  await server.close();
  const result = await moogoldAt(server.url).balance();
  assert.equal(kindOf(result), "network");
  assert.match(
    result.ok ? "" : result.message,
    /^cannot reach 127\.0\.0\.1:\d+: tcp connect error: Connection refused/,
  );
});

Deno.test("[simulator] close() releases a held response instead of waiting for it", async () => {
  const sim = moogold();
  sim.forceNext("timeout");
  const server = startSimulatorServer(sim.handler);
  const pending = moogoldAt(server.url, 30_000).balance();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await server.close();
  const result = await pending;
  assert.equal(result.ok, false);
  assert.notEqual(kindOf(result), "timeout");
});

Deno.test("[simulator] a request outside the base path gets MooGold's rest_no_route 404", async () => {
  await withServer(moogold({ basePath: "/__sim/moogold" }), async (server) => {
    const result = await moogoldAt(`${server.url}/elsewhere`).balance();
    assert.deepEqual(result, {
      ok: false,
      kind: "supplier",
      message: "No route was found matching the URL and request method.",
      code: "rest_no_route",
    });
  });
});

Deno.test("[simulator] knobsFromEnv reads only the variables set and refuses nonsense", () => {
  assert.deepEqual(
    knobsFromEnv("SIM_ELITEDIAS", {
      SIM_ELITEDIAS_LATENCY_MS: "250",
      SIM_ELITEDIAS_ERROR_RATE: "0.1",
      SIM_ELITEDIAS_MALFORMED_RATE: "",
      SIM_MOOGOLD_TIMEOUT_RATE: "1",
      SIM_ELITEDIAS_COMPLETE_AFTER_MS: "0",
    }),
    { latencyMs: 250, errorRate: 0.1, completeAfterMs: 0 },
  );
  assert.throws(
    () => knobsFromEnv("SIM_MOOGOLD", { SIM_MOOGOLD_ERROR_RATE: "1.5" }),
    /SIM_MOOGOLD_ERROR_RATE must be a number between 0 and 1/,
  );
  assert.throws(() => knobsFromEnv("SIM_MOOGOLD", { SIM_MOOGOLD_HOLD_MS: "soon" }), RangeError);
});

Deno.test("[elitedias] a forced timeout on checkid gives a timeout error", async () => {
  await withServer(createElitediasSimulator(), async (server, sim) => {
    sim.forceNext("timeout", 1, "checkid");
    const client = elitediasAt(server.url, 150);
    assert.equal(kindOf(await client.checkId("mlbb_global", "11111111", "1111")), "timeout");
    assert.equal(kindOf(await client.checkId("mlbb_global", "11111111", "1111")), "ok");
  });
});

Deno.test("[elitedias] a forced error on checkid is a supplier error, not a verdict", async () => {
  await withServer(createElitediasSimulator(), async (server, sim) => {
    sim.forceNext("error", 1, "checkid");
    const result = await elitediasAt(server.url).checkId("mlbb_global", "11111111", "1111");
    assert.equal(kindOf(result), "supplier");
    assert.equal(!result.ok && result.code, "500");
  });
});

Deno.test("[elitedias] a forced malformed answer gives a malformed error", async () => {
  await withServer(createElitediasSimulator(), async (server, sim) => {
    sim.forceNext("malformed");
    assert.equal(kindOf(await elitediasAt(server.url).denominations("mlbb")), "malformed");
  });
});

Deno.test("[elitedias] a forced error gives a supplier error with a non-200 code", async () => {
  await withServer(createElitediasSimulator(), async (server, sim) => {
    sim.failEndpoint("elitedias_reseller_topup_api", "error");
    const client = elitediasAt(server.url);
    const result = await client.topup({
      game: "pubgm",
      userid: "5123456789",
      denom: "60 UC",
      reference: "R1",
    });
    assert.deepEqual(result, {
      ok: false,
      kind: "supplier",
      message: "Simulated supplier error",
      code: "500",
    });
    assert.equal(kindOf(await client.balance()), "ok");
    assert.equal(sim.listOrders().length, 0);
  });
});

Deno.test("[elitedias] SIM_ELITEDIAS_MALFORMED_RATE=1 from the environment garbles every answer", async () => {
  const knobs = knobsFromEnv("SIM_ELITEDIAS", { SIM_ELITEDIAS_MALFORMED_RATE: "1" });
  await withServer(createElitediasSimulator({ knobs }), async (server) => {
    assert.equal(kindOf(await elitediasAt(server.url).gamesAvailable()), "malformed");
  });
});
