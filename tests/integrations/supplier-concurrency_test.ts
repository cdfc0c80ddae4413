// SUPPLIER_CONCURRENCY: however many jobs want a supplier at once, one client has at most its
// `maxInFlight` calls out there; the rest wait their turn and are answered too.
import assert from "node:assert/strict";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
} from "../../src/integrations/elitedias/simulator.ts";
import { createMoogoldClient } from "../../src/integrations/moogold/client.ts";
import {
  createMoogoldSimulator,
  MOOGOLD_SIMULATOR_CREDENTIALS,
} from "../../src/integrations/moogold/simulator.ts";
import { inFlightLimit, type SupplierResult } from "../../src/integrations/fetch-json.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

/** A simulator's server that holds each request 20 ms and counts the most it held at once. */
function countingServer(handler: (request: Request) => Promise<Response>) {
  let now = 0;
  const seen = { most: 0 };
  const server = startSimulatorServer(async (request) => {
    seen.most = Math.max(seen.most, ++now);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return await handler(request);
    } finally {
      now--;
    }
  });
  return { server, seen };
}

async function mostAtOnce(
  calls: number,
  call: () => Promise<SupplierResult<unknown>>,
  seen: { most: number },
): Promise<number> {
  seen.most = 0;
  const results = await Promise.all(Array.from({ length: calls }, call));
  for (const result of results) assert.ok(result.ok, JSON.stringify(result));
  return seen.most;
}

Deno.test("an EliteDias client has at most maxInFlight calls out at once", async () => {
  const sim = createElitediasSimulator({ basePath: "/__sim/elitedias" });
  const { server, seen } = countingServer(sim.handler);
  try {
    const client = (maxInFlight?: number) =>
      createElitediasClient({
        baseUrl: `${server.url}/__sim/elitedias`,
        checkIdUrl: `${server.url}/__sim/elitedias/checkid`,
        apiKey: ELITEDIAS_SIMULATOR_API_KEY,
        origin: "https://shop.example",
        timeoutMs: 2_000,
        maxInFlight,
      });
    const capped = client(3);
    assert.equal(await mostAtOnce(10, () => capped.balance(), seen), 3);
    const uncapped = client();
    assert.equal(await mostAtOnce(10, () => uncapped.balance(), seen), 10);
  } finally {
    await server.close();
  }
});

Deno.test("a MooGold client has at most maxInFlight calls out at once", async () => {
  const sim = createMoogoldSimulator({ basePath: "/__sim/moogold" });
  const { server, seen } = countingServer(sim.handler);
  try {
    const client = (maxInFlight?: number) =>
      createMoogoldClient({
        baseUrl: `${server.url}/__sim/moogold/`,
        ...MOOGOLD_SIMULATOR_CREDENTIALS,
        timeoutMs: 2_000,
        maxInFlight,
      });
    const capped = client(2);
    assert.equal(await mostAtOnce(7, () => capped.balance(), seen), 2);
    const uncapped = client();
    assert.equal(await mostAtOnce(7, () => uncapped.balance(), seen), 7);
  } finally {
    await server.close();
  }
});

Deno.test("inFlightLimit starts waiting calls in arrival order, also after a failure", async () => {
  const limited = inFlightLimit(1);
  const started: number[] = [];
  let release!: () => void;
  const first = limited(async () => {
    started.push(0);
    await new Promise<void>((resolve) => release = resolve);
    throw new Error("refused");
  });
  const rest = [1, 2, 3].map((n) => limited(() => Promise.resolve(started.push(n))));
  await Promise.resolve();
  assert.deepEqual(started, [0], "the others wait while one is out");
  release();
  await assert.rejects(first, /refused/);
  await Promise.all(rest);
  assert.deepEqual(started, [0, 1, 2, 3]);
});
