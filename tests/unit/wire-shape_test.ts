import assert from "node:assert/strict";
import { assertSameWireShape, wireShapeDifferences } from "../helpers/wire-shape.ts";

const RECORDED = {
  id: "a1",
  amount: "10.00",
  send_email: true,
  expiry_date: "2025-05-26T15:10:00",
  address: { city: "Singapore" },
  payments: [
    { id: "p1", status: "failed", fees: "0.00" },
    { id: "p2", status: "succeeded", fees: "0.35", refunded_amount: "0.00" },
  ],
};

Deno.test("[wire shape] other values with the same keys and types are the same shape", () => {
  assertSameWireShape({
    id: "b2",
    amount: "1,234.50",
    send_email: false,
    expiry_date: "2026-01-01T00:00:00",
    address: { city: "Johor" },
    payments: [{ id: "p9", status: "succeeded", fees: "0.00", refunded_amount: "0.00" }],
  }, RECORDED);
});

Deno.test("[wire shape] a missing key, an extra key and a changed type are each named", () => {
  const { send_email: _sendEmail, ...withoutSendEmail } = RECORDED;
  assert.deepEqual(
    wireShapeDifferences(
      { ...withoutSendEmail, amount: 10, extra: "x", payments: [{ id: 1, status: "x" }] },
      RECORDED,
    ),
    [
      "amount: number, recorded string",
      "extra: not in the recorded answer",
      "payments[].fees: missing",
      "payments[].id: number, recorded string",
      "payments[].refunded_amount: missing",
      "send_email: missing",
    ],
  );
});

Deno.test("[wire shape] ignored paths and nullable paths are not differences", () => {
  const { address: _address, ...withoutAddress } = RECORDED;
  const actual = { ...withoutAddress, expiry_date: null, payments: [] };
  assert.deepEqual(wireShapeDifferences(actual, RECORDED), [
    "address: missing",
    "expiry_date: null, recorded string",
  ]);
  assertSameWireShape(actual, RECORDED, { ignore: ["address"], nullable: ["expiry_date"] });
});
