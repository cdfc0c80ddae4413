// Which route an order takes after its supplier refused it outright (src/domain/orders/routing.ts).
import assert from "node:assert/strict";
import { chooseNextRoute, orderRouteOf } from "../../src/domain/orders/routing.ts";

const ELITEDIAS = {
  supplier: "elephant",
  supplierGame: "genshin",
  supplierItem: "60",
  cost: "0.85",
};
const MOOGOLD = {
  supplier: "monkey",
  supplierGame: "3689112",
  supplierItem: "3689113",
  cost: "0.87",
};

Deno.test("[routes] after a refusal the order takes the first route it has not been at", () => {
  const choice = chooseNextRoute([MOOGOLD, ELITEDIAS], {
    tried: new Set(["monkey"]),
    balanceCents: new Map(),
  });
  assert.deepEqual(choice, { next: ELITEDIAS, skipped: [] });
  assert.deepEqual(
    chooseNextRoute([ELITEDIAS, MOOGOLD], { tried: new Set(), balanceCents: new Map() }).next,
    ELITEDIAS,
    "in priority order",
  );
});

Deno.test("[routes] once every route was tried there is none: the order fails", () => {
  const choice = chooseNextRoute([ELITEDIAS], {
    tried: new Set(["monkey", "elephant"]),
    balanceCents: new Map(),
  });
  assert.deepEqual(choice, { skipped: [] });
});

Deno.test("[routes] a supplier whose last balance is short of the cost is skipped, with why", () => {
  const short = chooseNextRoute([ELITEDIAS, MOOGOLD], {
    tried: new Set(),
    balanceCents: new Map([["elephant", 84]]),
  });
  assert.deepEqual(short.next, MOOGOLD);
  assert.equal(short.skipped.length, 1);
  assert.equal(short.skipped[0].route, ELITEDIAS);
  assert.match(short.skipped[0].reason, /EliteDias's last balance reading \(0\.84 SGD\)/);
  const exact = chooseNextRoute([ELITEDIAS], {
    tried: new Set(),
    balanceCents: new Map([["elephant", 85]]),
  });
  assert.deepEqual(exact, { next: ELITEDIAS, skipped: [] }, "a balance that covers it is enough");
  const unknown = chooseNextRoute([ELITEDIAS], { tried: new Set(), balanceCents: new Map() });
  assert.deepEqual(unknown.next, ELITEDIAS, "an unread balance is not known to be short");
});

Deno.test("[routes] a route of an unregistered supplier is passed over", () => {
  const gone = { ...ELITEDIAS, supplier: "retired" };
  const choice = chooseNextRoute([gone, MOOGOLD], { tried: new Set(), balanceCents: new Map() });
  assert.deepEqual(choice.next, MOOGOLD);
  assert.match(choice.skipped[0].reason, /not a registered supplier/);
});

Deno.test("[routes] the order names its route's game the way that supplier does", () => {
  assert.deepEqual(orderRouteOf(ELITEDIAS, "3689113"), {
    supplier: "elephant",
    denom: "60",
    gameCode: "genshin",
    productId: null,
    cost: "0.85",
    itemKey: "3689113",
  });
  assert.deepEqual(orderRouteOf(MOOGOLD, "60"), {
    supplier: "monkey",
    denom: "3689113",
    gameCode: null,
    productId: "3689112",
    cost: "0.87",
    itemKey: "60",
  });
});
