// The admin's audit rows read as lines of "field: old → new", nested fields by
// their path and list entries by their names, never as JSON.
import assert from "node:assert/strict";
import { auditChangeLines } from "../../src/islands/lib/audit-changes.ts";

const item = (name: string, cost: number) => ({
  cost,
  nameConsumer: { header: name, subheader: "" },
  nameReseller: name,
  isHiddenConsumer: false,
});
const game = {
  name: "Mobile Legends",
  platforms: ["Android", "iOS"],
  servers: {},
  resellerMarkup: { "Alpha Top-Ups": 5 },
  faq: [],
  packages: [
    {
      name: "mlbb",
      markupConsumer: 8.8,
      gameItems: [item("86 Diamonds", 1.52), item("172 Diamonds", 3.03)],
    },
    { name: "mlbb_special", markupConsumer: 8.8, gameItems: [item("50", 0.78)] },
  ],
};

/** No line carries JSON's braces, brackets or quotes. */
function assertNoJson(lines: string[]) {
  for (const line of lines) assert.doesNotMatch(line, /[{}[\]"]/, line);
}

Deno.test("[audit] a change deep in a game is one line naming its package and item", () => {
  const after = structuredClone(game);
  after.packages[0].gameItems[1].isHiddenConsumer = true;
  after.packages[1].markupConsumer = 10;
  after.resellerMarkup["Alpha Top-Ups"] = 6;
  after.platforms = ["Android", "iOS", "PC"];
  const lines = auditChangeLines(game, after);
  assert.deepEqual(lines, [
    "platforms: Android, iOS → Android, iOS, PC",
    "resellerMarkup › Alpha Top-Ups: 5 → 6",
    "packages › mlbb › gameItems › 172 Diamonds › isHiddenConsumer: false → true",
    "packages › mlbb_special › markupConsumer: 8.8 → 10",
  ]);
});

Deno.test("[audit] list entries are matched by name: reordered is no change, added and removed say so", () => {
  const reordered = { ...game, packages: [game.packages[1], game.packages[0]] };
  assert.deepEqual(auditChangeLines(game, reordered), []);
  const changed = {
    ...game,
    packages: [game.packages[0], { name: "mlbb_global", markupConsumer: 5, gameItems: [] }],
  };
  assert.deepEqual(auditChangeLines(game, changed), [
    "packages › mlbb_special: removed",
    "packages › mlbb_global: added",
  ]);
});

Deno.test("[audit] a deleted or created target lists its fields, lists by their entries' names", () => {
  const deleted = auditChangeLines(game, null);
  assert.deepEqual(deleted, [
    "name: Mobile Legends",
    "platforms: Android, iOS",
    "resellerMarkup › Alpha Top-Ups: 5",
    "faq: none",
    "packages: mlbb, mlbb_special",
  ]);
  assertNoJson(deleted);
  assert.deepEqual(
    auditChangeLines(undefined, { changed: 3, servers: { "1": "Asia", "2": "Europe" } }),
    ["changed: 3", "servers › 1: Asia", "servers › 2: Europe"],
  );
});

Deno.test("[audit] a reseller's edit: each markup and field on its own line, no JSON", () => {
  const before = {
    name: "Alpha",
    email: "a@example.com",
    markup: { mlbb: 5, mlbb_global: 6 },
    remarks: "",
    disableDiscounts: false,
  };
  const after = {
    ...before,
    markup: { mlbb: 4.5, mlbb_global: 6, pubgm: 3 },
    remarks: "Signed at the expo",
    passwordChanged: false,
  };
  const lines = auditChangeLines(before, after);
  assert.deepEqual(lines, [
    "markup › mlbb: 5 → 4.5",
    "markup › pubgm: 3",
    "remarks: (blank) → Signed at the expo",
    "passwordChanged: false",
  ]);
  assertNoJson(lines);
});

Deno.test("[audit] a supplier is named as its operators know it, not by the spec's code name", () => {
  const launched = { name: "Honor of Kings", supplier: "elephant", supplierName: "hok" };
  assert.deepEqual(auditChangeLines(null, launched), [
    "name: Honor of Kings",
    "supplier: EliteDias",
    "supplierName: hok",
  ]);
  assert.deepEqual(
    auditChangeLines({ ...launched, supplier: "others" }, { ...launched, supplier: "monkey" }),
    ["supplier: others → MooGold"],
  );
});
