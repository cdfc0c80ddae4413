import assert from "node:assert/strict";
import { assertSameWireShape, wireShapeDifferences } from "../helpers/wire-shape.ts";

const RECORDED = {
  status: "true",
  total: "1.55",
  item: [{ variation_id: 4690783, voucher_code: [] }],
};

Deno.test("[wire shape] the same keys and JSON types agree, whatever the values", () => {
  const answer = {
    status: "false",
    total: "9.99",
    item: [{ variation_id: 1, voucher_code: ["X"] }, { variation_id: 2, voucher_code: [] }],
  };
  assert.deepEqual(wireShapeDifferences(RECORDED, answer), []);
});

Deno.test("[wire shape] a changed JSON type, a missing key and an extra key are each reported", () => {
  const answer = {
    status: true,
    item: [{ variation_id: "4690783", voucher_code: [], extra: 1 }],
  };
  assert.deepEqual(wireShapeDifferences(RECORDED, answer), [
    "$.status: string expected, boolean found",
    "$.total: missing",
    "$.item[].variation_id: number expected, string found",
    "$.item[].extra: not in the recorded answer",
  ]);
});

Deno.test("[wire shape] optional keys may be absent on either side, nullable values null", () => {
  const options = { optional: ["$.total", "$.username"], nullable: ["$.item[].variation_id"] };
  const answer = {
    status: "true",
    username: "Kagura",
    item: [{ variation_id: null, voucher_code: [] }],
  };
  assert.deepEqual(wireShapeDifferences(RECORDED, answer, options), []);
  assert.deepEqual(wireShapeDifferences(RECORDED, { ...answer, status: null }, options), [
    "$.status: string expected, null found",
  ]);
});

Deno.test("[wire shape] a map's keys are data: its values are compared, its keys are not", () => {
  const recorded = { "86 Diamonds": 1.52, "172 Diamonds": 3.03 };
  assert.deepEqual(wireShapeDifferences(recorded, { "50": 0.78 }, { maps: ["$"] }), []);
  assert.deepEqual(wireShapeDifferences(recorded, { "50": "0.78" }, { maps: ["$"] }), [
    "$.*: number expected, string found",
  ]);
  assert.deepEqual(wireShapeDifferences(recorded, { "50": 0.78 }), [
    "$.86 Diamonds: missing",
    "$.172 Diamonds: missing",
    "$.50: not in the recorded answer",
  ]);
});

Deno.test("[wire shape] assertSameWireShape throws with every difference listed", () => {
  assert.throws(
    () => assertSameWireShape({ total: 1.55 }, { total: "1.55" }),
    /the answer's shape differs from the recorded answer:\n {2}\$\.total: string expected, number found/,
  );
  assertSameWireShape({ total: "2.00" }, { total: "1.55" });
});
