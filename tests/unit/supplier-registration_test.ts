// A third supplier is its folder's registration plus one line in REGISTERED: here a test-only
// registration, Acme, is added to the registered list through the same seams production wires
// REGISTERED with, and the configuration, the doctor, the alert thresholds and the ports take it
// without any other edit.
import assert from "node:assert/strict";
import { z } from "zod";
import { ConfigError, loadConfig, loadConfigWith } from "../../src/config.ts";
import {
  isSupplierKey,
  REGISTERED,
  wireSuppliers,
} from "../../src/integrations/supplier-registry.ts";
import { defineSupplier } from "../../src/integrations/supplier-registration.ts";
import { failWith, type SupplierResult } from "../../src/integrations/fetch-json.ts";
import { balanceFailure, type SupplierPort } from "../../src/integrations/supplier-port.ts";
import type { MoogoldClient } from "../../src/integrations/moogold/client.ts";
import type { ElitediasClient } from "../../src/integrations/elitedias/client.ts";
import { examineSetup } from "../../src/domain/admin/doctor.ts";
import {
  alertSettingsSchemaOf,
  defaultAlertSettingsOf,
  minBalanceFieldsOf,
} from "../../src/domain/operations/alert-settings.ts";
import { productionEnv, unreachableServices } from "../helpers/production.ts";

/** Acme's one call here: its balance, as its client answers it. */
interface AcmeClient {
  baseUrl: string;
  balance(): Promise<SupplierResult<string>>;
}

/** A token Acme refuses. */
const WRONG_TOKEN = "acme-token-mistyped";

function acmeClient(baseUrl: string, token: string | undefined): AcmeClient {
  return {
    baseUrl,
    balance: () =>
      Promise.resolve(
        token === WRONG_TOKEN
          ? failWith("supplier", "Unknown token", "401")
          : { ok: true, value: "12.50" },
      ),
  };
}

const ACME_PROFILE = {
  key: "acme",
  name: "Acme",
  balanceCurrency: "EUR",
  capabilities: { findsByOurReference: false, reportsMaintenanceOnOrder: false },
  gameKey: "supplierName" as const,
  takesOrdersFor: () => true,
  itemKey: (item: { nameSupplier: string }) => item.nameSupplier,
};

function acmePort(client: AcmeClient): SupplierPort {
  const unknown = { kind: "unknown" as const, reason: "Acme takes no orders in this test" };
  return {
    ...ACME_PROFILE,
    vendor: "acme",
    prepareCreate: () => Promise.resolve(unknown),
    track: () => Promise.resolve(unknown),
    checkAccount: () => Promise.resolve({ ok: false, unanswered: "not in this test" }),
    readOffer: () => Promise.resolve(null),
    readServers: () => Promise.resolve(null),
    readLaunchDetails: () => Promise.resolve(null),
    async readBalance() {
      const r = await client.balance();
      return r.ok ? { ok: true, balance: r.value, currency: "EUR" } : balanceFailure(r);
    },
  };
}

/** Acme as its folder's supplier.ts would register it. */
const acmeSupplier = defineSupplier({
  ...ACME_PROFILE,
  vendor: "acme",
  env: {
    modeVariable: "ACME_MODE",
    fields: {
      ACME_BASE_URL: z.string().default("https://api.acme.example"),
      ACME_TOKEN: z.string().min(1).optional(),
    },
    section: (e, mode) => ({ mode, baseUrl: e.ACME_BASE_URL, token: e.ACME_TOKEN }),
    problems: (s) =>
      s.mode === "live" && !s.token ? ["ACME_TOKEN: required when Acme is live"] : [],
    secrets: ["ACME_TOKEN"],
    urls: ["ACME_BASE_URL"],
  },
  client: {
    live: (s) => acmeClient(s.baseUrl, s.token),
    simulated: (appUrl) => acmeClient(`${appUrl}/__sim/acme`, "sim_acme_token"),
  },
  simulator: {
    path: "/__sim/acme",
    credentials: { token: "sim_acme_token" },
    load: () => Promise.reject(new Error("no Acme simulator in this test")),
  },
  port: acmePort,
  minBalanceDefault: 250,
});

const WITH_ACME = [...REGISTERED, acmeSupplier] as const;

/** The problems a configuration is refused with, one line each. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfigWith(WITH_ACME, env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

/** Production's live services where nothing answers, with Acme live at `acme`. */
function productionWithAcme(acme: Record<string, string>): Record<string, string> {
  return { ...productionEnv(unreachableServices()), ACME_TOKEN: "acme-token-4f2b", ...acme };
}

Deno.test("[supplier registry] a registered supplier's variables make its own config section", () => {
  const demo = loadConfigWith(WITH_ACME, {});
  assert.deepEqual(demo.acme, {
    mode: "simulator",
    baseUrl: "https://api.acme.example",
    token: undefined,
  });
  assert.equal(demo.moogold.mode, "simulator", "the registered suppliers keep theirs");
  assert.equal(demo.elitedias.mode, "simulator");

  const live = loadConfigWith(
    WITH_ACME,
    productionWithAcme({ ACME_BASE_URL: "https://acme.example/api" }),
  );
  assert.deepEqual(live.acme, {
    mode: "live",
    baseUrl: "https://acme.example/api",
    token: "acme-token-4f2b",
  });

  // Without the registration its variables are nobody's.
  assert.equal("acme" in loadConfig({ ACME_MODE: "sometimes" }), false);
  assert.deepEqual(problemsOf({ ACME_MODE: "sometimes" }), [
    "ACME_MODE: expected 'simulator' or 'live' (got 'sometimes')",
  ]);
});

Deno.test("[supplier registry] a registered supplier's credentials, mode and address are held to production's rules", () => {
  assert.deepEqual(problemsOf(productionWithAcme({})), []);
  const cases: [Record<string, string | undefined>, string][] = [
    [{ ACME_TOKEN: undefined }, "ACME_TOKEN: required when Acme is live"],
    [{ ACME_MODE: "simulator" }, "ACME_MODE: simulator is not allowed when APP_MODE is production"],
    [{ ACME_TOKEN: "sim_acme_token" }, "ACME_TOKEN: is a demo value published in this repository"],
    [{ ACME_BASE_URL: "http://acme.example" }, "ACME_BASE_URL: must start with https://"],
  ];
  for (const [change, line] of cases) {
    const problems = problemsOf({ ...productionWithAcme({}), ...change });
    assert.equal(problems.length, 1, `${JSON.stringify(change)}: ${problems.join(" | ")}`);
    assert.ok(problems[0].startsWith(line), problems[0]);
  }
  // The demo refuses a live Acme as it refuses a live MooGold.
  assert.deepEqual(problemsOf({ ACME_MODE: "live", ACME_TOKEN: "acme-token-4f2b" }), [
    "APP_MODE: is demo (the default) but live services are configured (ACME_TOKEN, ACME_MODE): " +
    "set APP_MODE=production to sell with them, or unset them to run the demo on its simulators",
  ]);
});

Deno.test("[supplier registry] the doctor lists a registered supplier and reads its balance through its port", async () => {
  const demo = await examineSetup({}, { live: false, registrations: WITH_ACME });
  assert.deepEqual(
    demo.services.map((s) => [s.name, s.mode]),
    [
      ["MooGold", "simulator"],
      ["EliteDias", "simulator"],
      ["Acme", "simulator"],
      ["HitPay", "simulator"],
      ["Yahoo Finance", "simulator"],
    ],
  );
  assert.ok(demo.lines.includes("  Acme: simulated"), demo.lines.join("\n"));

  const env = productionWithAcme({ SUPPLIER_TIMEOUT_MS: "1000" });
  const live = await examineSetup(env, { live: true, registrations: WITH_ACME });
  assert.ok(live.lines.includes("  Acme: live at https://api.acme.example"), live.lines.join("\n"));
  assert.ok(live.lines.includes("  Acme: OK, balance 12.50 EUR"), live.lines.join("\n"));
  const refused = await examineSetup(
    { ...env, ACME_TOKEN: WRONG_TOKEN },
    { live: true, registrations: WITH_ACME },
  );
  assert.ok(
    refused.lines.includes("  Acme: FAILED, refused: Unknown token (error 401)"),
    refused.lines.join("\n"),
  );
});

Deno.test("[supplier registry] a registered supplier gets its low-balance threshold, labelled in its currency", () => {
  const defaults = defaultAlertSettingsOf(WITH_ACME);
  assert.deepEqual(Object.keys(defaults), [
    "moogoldMinBalance",
    "elitediasMinBalance",
    "acmeMinBalance",
    "jobBacklogLimit",
    "webhookFailureLimit",
  ]);
  assert.equal(defaults.acmeMinBalance, 250);
  const schema = alertSettingsSchemaOf(WITH_ACME);
  assert.equal(schema.parse({ ...defaults, acmeMinBalance: 40.5 }).acmeMinBalance, 40.5);
  assert.equal(schema.safeParse({ ...defaults, acmeMinBalance: 1.234 }).success, false);
  assert.equal(schema.safeParse({ ...defaults, acmeMinBalance: undefined }).success, false);
  assert.deepEqual(minBalanceFieldsOf(WITH_ACME), [
    { key: "moogoldMinBalance", label: "MooGold balance below (USD)" },
    { key: "elitediasMinBalance", label: "EliteDias balance below (SGD)" },
    { key: "acmeMinBalance", label: "Acme balance below (EUR)" },
  ]);
});

Deno.test("[supplier registry] a registered supplier's port is built from its own client", async () => {
  const wiring = wireSuppliers(WITH_ACME);
  assert.deepEqual(wiring.keys, ["monkey", "elephant", "acme"]);
  assert.ok(wiring.isSupplierKey("acme"));
  assert.equal(wiring.supplierProfile("acme")?.name, "Acme");
  assert.equal(isSupplierKey("acme"), false, "the shipped registry has no Acme");
  const clients = {
    moogold: {} as MoogoldClient,
    elitedias: {} as ElitediasClient,
    acme: acmeClient("https://acme.example", "acme-token-4f2b"),
  };
  const ports = wiring.supplierPorts(clients);
  assert.deepEqual(ports.map((p) => p.key), ["monkey", "elephant", "acme"]);
  assert.deepEqual(await ports[2].readBalance(), { ok: true, balance: "12.50", currency: "EUR" });
  assert.equal(wiring.supplierPorts(clients), ports, "built once per set of clients");
});
