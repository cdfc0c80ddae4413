import assert from "node:assert/strict";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
} from "../../src/integrations/elitedias/simulator.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { choosePackageFor, verifyMlbbAccount } from "../../src/domain/orders/verification.ts";
import { UpstreamError } from "../../src/domain/errors.ts";

const IN_STOCK = { mlbb: false, mlbb_special: false, mlbb_global: false };

async function withSuppliers(
  run: (s: Suppliers, sim: ReturnType<typeof createElitediasSimulator>) => Promise<void>,
) {
  const sim = createElitediasSimulator({ basePath: "/ed" });
  const server = startSimulatorServer(sim.handler);
  try {
    const elitedias = createElitediasClient({
      baseUrl: `${server.url}/ed`,
      checkIdUrl: `${server.url}/ed/checkid`,
      apiKey: ELITEDIAS_SIMULATOR_API_KEY,
      origin: "https://shop.example",
      timeoutMs: 300,
    });
    await run({ elitedias } as Suppliers, sim);
  } finally {
    await server.close();
  }
}

const CASES: [string, string, boolean, string][] = [
  ["11111111", "1111", false, "mlbb"],
  ["11111111", "1111", true, "mlbb_special"],
  ["22222222", "2222", false, "mlbb_special"],
  ["33333333", "3333", false, "mlbb_special"],
  ["44444444", "4444", false, "mlbb_global"],
  ["55555555", "5555", false, "invalid"],
  ["66666666", "6666", false, "out_of_stock"],
  ["98765432", "4321", false, "mlbb"],
];

Deno.test("[mlbb] each simulator test account verifies to its package (spec §4)", async () => {
  await withSuppliers(async (suppliers) => {
    for (const [userid, serverid, restricted, expected] of CASES) {
      const v = await verifyMlbbAccount(suppliers, userid, serverid);
      const choice = choosePackageFor(v, { isRestricted: restricted, outOfStock: IN_STOCK });
      const got = choice.kind === "ok" ? choice.package : choice.kind;
      assert.equal(got, expected, `${userid}/${serverid} restricted=${restricted}`);
    }
  });
});

Deno.test("[mlbb] the verify answer has the spec's fields: names, errors and region", async () => {
  await withSuppliers(async (suppliers) => {
    const ph = await verifyMlbbAccount(suppliers, "22222222", "2222");
    assert.equal(ph.mlbb_global, "valid");
    assert.equal(ph.mlbb_special, "valid");
    assert.ok(ph.name1 && ph.name2);
    assert.equal(ph.region, "philippines");
    const maintenance = await verifyMlbbAccount(suppliers, "66666666", "6666");
    assert.equal(maintenance.error1, "Game is under maintenance");
    const invalid = await verifyMlbbAccount(suppliers, "55555555", "5555");
    assert.equal(invalid.mlbb_global, "invalid");
    assert.equal(invalid.mlbb_special, "invalid");
  });
});

Deno.test("[mlbb] the standard package out of stock sends a both-valid account to special", async () => {
  await withSuppliers(async (suppliers) => {
    const v = await verifyMlbbAccount(suppliers, "11111111", "1111");
    const choice = choosePackageFor(v, {
      isRestricted: false,
      outOfStock: { ...IN_STOCK, mlbb: true },
    });
    assert.deepEqual(choice, { kind: "ok", package: "mlbb_special" });
  });
});

Deno.test("[mlbb] when checkid cannot be reached at all the verify call fails", async () => {
  await withSuppliers(async (suppliers, sim) => {
    sim.forceNext("timeout", 2, "checkid");
    await assert.rejects(verifyMlbbAccount(suppliers, "11111111", "1111"), UpstreamError);
  });
});
