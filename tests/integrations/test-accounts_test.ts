import assert from "node:assert/strict";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import {
  createElitediasSimulator,
  ELITEDIAS_SIMULATOR_API_KEY,
} from "../../src/integrations/elitedias/simulator.ts";
import { MLBB_TEST_ACCOUNTS } from "../../src/integrations/elitedias/test-accounts.ts";
import { createMoogoldClient } from "../../src/integrations/moogold/client.ts";
import {
  createMoogoldSimulator,
  MOOGOLD_SIMULATOR_CREDENTIALS,
} from "../../src/integrations/moogold/simulator.ts";
import { MOOGOLD_MLBB_PRODUCT_ID } from "../../src/integrations/moogold/catalogue.ts";
import { type SupplierResult } from "../../src/integrations/fetch-json.ts";
import {
  type SimulatorServer,
  startSimulatorServer,
} from "../../src/integrations/simulator-kit.ts";

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

async function withEd(
  run: (client: ReturnType<typeof createElitediasClient>) => Promise<void>,
): Promise<void> {
  const server: SimulatorServer = startSimulatorServer(createElitediasSimulator().handler);
  try {
    await run(createElitediasClient({
      baseUrl: server.url,
      checkIdUrl: `${server.url}/checkid`,
      apiKey: ELITEDIAS_SIMULATOR_API_KEY,
      origin: "https://shop.example",
      timeoutMs: 2_000,
    }));
  } finally {
    await server.close();
  }
}

const EXPECTED = [
  ["11111111", "1111", { global: "valid", special: "valid", region: "malaysia" }],
  ["22222222", "2222", { global: "valid", special: "valid", region: "philippines" }],
  ["33333333", "3333", { global: "invalid", special: "valid", region: "indonesia" }],
  ["44444444", "4444", { global: "valid", special: "invalid", region: "singapore" }],
  ["55555555", "5555", { global: "invalid", special: "invalid", region: undefined }],
  ["66666666", "6666", { global: "error", special: "error", region: undefined }],
] as const;

Deno.test("[test accounts] MLBB checkid outcomes follow the documented table", async () => {
  await withEd(async (client) => {
    for (const [userId, serverId, expected] of EXPECTED) {
      const global = valueOf(await client.checkId("mlbb_global", userId, serverId));
      const special = valueOf(await client.checkId("mlbb_special", userId, serverId));
      assert.equal(global.valid, expected.global, `${userId} global`);
      assert.equal(special.valid, expected.special, `${userId} special`);
      const valid = [global, special].find((answer) => answer.valid === "valid");
      assert.equal(valid?.region, expected.region, `${userId} region`);
    }
  });
});

Deno.test("[test accounts] 66666666 answers 'Game is under maintenance' on every MLBB package", async () => {
  await withEd(async (client) => {
    for (const game of ["mlbb", "mlbb_global", "mlbb_special"]) {
      assert.deepEqual(valueOf(await client.checkId(game, "66666666", "6666")), {
        valid: "error",
        error: "Game is under maintenance",
      });
    }
  });
});

Deno.test("[test accounts] any other digits are valid everywhere, not philippines, with a stable nickname", async () => {
  await withEd(async (client) => {
    const global = valueOf(await client.checkId("mlbb_global", "98765432", "1234"));
    const special = valueOf(await client.checkId("mlbb_special", "98765432", "1234"));
    assert.equal(global.valid, "valid");
    assert.equal(special.valid, "valid");
    assert.equal(global.name, special.name);
    assert.notEqual(global.region, "philippines");
    assert.ok(global.region);
    const other = valueOf(await client.checkId("mlbb_global", "98765433", "1234"));
    assert.notEqual(other.name, global.name, "the nickname depends on the id");
  });
});

Deno.test("[test accounts] a known User ID with another Server ID, or non-digits, is invalid", async () => {
  await withEd(async (client) => {
    assert.equal(valueOf(await client.checkId("mlbb_global", "11111111", "9999")).valid, "invalid");
    assert.equal(valueOf(await client.checkId("mlbb_global", "abc", "1111")).valid, "invalid");
  });
});

Deno.test("[test accounts] the MooGold MLBB product validates an account valid in either package", async () => {
  const server = startSimulatorServer(createMoogoldSimulator().handler);
  try {
    const client = createMoogoldClient({
      baseUrl: server.url,
      ...MOOGOLD_SIMULATOR_CREDENTIALS,
      timeoutMs: 2_000,
    });
    for (const account of MLBB_TEST_ACCOUNTS) {
      const answer = valueOf(
        await client.validate(MOOGOLD_MLBB_PRODUCT_ID, {
          "User ID": account.userId,
          "Server": account.serverId,
        }),
      );
      const expectValid = account.globalValid || account.specialValid;
      assert.equal(answer.valid, expectValid, account.userId);
      assert.equal(answer.username, expectValid ? account.name : null, account.userId);
      if (account.error !== null) assert.equal(answer.message, account.error);
    }
  } finally {
    await server.close();
  }
});
