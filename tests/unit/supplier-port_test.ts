import assert from "node:assert/strict";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import type { MoogoldClient } from "../../src/integrations/moogold/client.ts";
import type { ElitediasClient } from "../../src/integrations/elitedias/client.ts";
import type { SupplierPort } from "../../src/integrations/supplier-port.ts";
import {
  isSupplierKey,
  SUPPLIER_KEYS,
  supplierPort,
  supplierProfile,
} from "../../src/integrations/supplier-registry.ts";
import { failWith } from "../../src/integrations/fetch-json.ts";
import { findByOurReference } from "../../src/domain/orders/fulfil.ts";
import {
  DEFAULT_ALERT_SETTINGS,
  minBalanceSettingOf,
} from "../../src/domain/operations/alert-settings.ts";

/** Clients whose every call is refused, recording which were made. */
function refusingSuppliers(calls: string[]): Suppliers {
  const refusing = (vendor: string) =>
    new Proxy({}, {
      get: (_, method) => (..._args: unknown[]) => {
        calls.push(`${vendor}.${String(method)}`);
        return Promise.resolve(failWith("supplier", "no such order", "404"));
      },
    });
  return {
    moogold: refusing("moogold") as MoogoldClient,
    elitedias: refusing("elitedias") as ElitediasClient,
  };
}

const PORT_CALLS = [
  "prepareCreate",
  "track",
  "checkAccount",
  "readOffer",
  "readServers",
  "readLaunchDetails",
  "readBalance",
  "takesOrdersFor",
  "itemKey",
] as const;

Deno.test("[supplier port] every registered supplier implements the port under its key", () => {
  const suppliers = refusingSuppliers([]);
  assert.deepEqual(SUPPLIER_KEYS, ["monkey", "elephant"]);
  for (const key of SUPPLIER_KEYS) {
    const port = supplierPort(suppliers, key)!;
    assert.equal(port.key, key);
    assert.ok(isSupplierKey(key));
    assert.ok(port.name.length > 0, `${key} has a name`);
    assert.match(port.vendor, /^[a-z]+$/, `${key} has a vendor label`);
    // The operations watch reads every registered supplier's balance against its own threshold.
    assert.ok(minBalanceSettingOf(port.vendor) in DEFAULT_ALERT_SETTINGS, `${key}'s threshold`);
    for (const call of PORT_CALLS) assert.equal(typeof port[call], "function", `${key}.${call}`);
    assert.ok(port.gameKey === "supplierName" || port.gameKey === "supplierGameId");
    const profile = supplierProfile(key)!;
    assert.equal(profile.name, port.name);
    assert.deepEqual(profile.capabilities, port.capabilities);
    assert.equal(
      typeof port.findByOurReference === "function",
      port.capabilities.findsByOurReference,
      `${key}: a lookup by our reference exactly when it declares one`,
    );
  }
  assert.equal(supplierPort(suppliers, "others"), undefined);
  assert.equal(isSupplierKey("others"), false);
});

Deno.test("[supplier port] the capability flag alone decides whether an order is asked by reference", async () => {
  const asked: string[] = [];
  const port = (findsByOurReference: boolean): SupplierPort => ({
    ...supplierPort(refusingSuppliers([]), SUPPLIER_KEYS[0])!,
    name: "Test",
    capabilities: { findsByOurReference, reportsMaintenanceOnOrder: false },
    findByOurReference: (orderId) => {
      asked.push(orderId);
      return Promise.resolve({ kind: "absent", reason: "none" });
    },
  });
  const unasked = await findByOurReference(port(false), "R1");
  assert.equal(unasked.kind, "review");
  assert.match((unasked as { reason: string }).reason, /Test cannot be asked by our reference/);
  assert.deepEqual(asked, [], "a supplier without the capability is never asked");
  assert.deepEqual(await findByOurReference(port(true), "R2"), { kind: "absent", reason: "none" });
  assert.deepEqual(asked, ["R2"]);
});

Deno.test("[supplier port] each registered supplier's lookup by reference, as it declares", async () => {
  for (const key of SUPPLIER_KEYS) {
    const calls: string[] = [];
    const port = supplierPort(refusingSuppliers(calls), key)!;
    const lookup = await findByOurReference(port, "R3");
    if (port.capabilities.findsByOurReference) {
      // The supplier's own refusal is its word that it holds no such order.
      assert.deepEqual(lookup, { kind: "absent", reason: "supplier 404: no such order" });
      assert.equal(calls.length, 1, `${key} is asked once`);
    } else {
      assert.equal(lookup.kind, "review");
      assert.deepEqual(calls, [], `${key} is not asked`);
    }
  }
});

Deno.test("[supplier port] answers reduce to the one verdict vocabulary", async () => {
  const order = {
    id: "R4",
    userId: "1",
    serverId: "",
    userName: "",
    gameCode: "pubgm",
    denom: "60",
    productId: null,
    supplierOrderId: "77",
  };
  for (const key of SUPPLIER_KEYS) {
    const port = supplierPort(refusingSuppliers([]), key)!;
    // A refused status check says nothing certain about where the order stands.
    assert.deepEqual(await port.track(order), {
      kind: "unknown",
      reason: "supplier 404: no such order",
    });
    const create = await port.prepareCreate(order);
    const verdict = typeof create === "function" ? await create() : create;
    assert.ok(["failed", "unknown"].includes(verdict.kind), `${key}: ${verdict.kind}`);
  }
});
