import assert from "node:assert/strict";
import { parseMoveAmount } from "../../src/domain/resellers/balance.ts";
import { normalizeMarkup } from "../../src/domain/resellers/accounts.ts";
import { ValidationError } from "../../src/domain/errors.ts";

Deno.test("[balance] top-up and deduct amounts become exact cents: positive, 2 decimals, under the ceiling", () => {
  assert.equal(parseMoveAmount(0.3, "100"), 30);
  assert.equal(parseMoveAmount("1234.56", "100000"), 123456);
  assert.equal(parseMoveAmount(1.1, "100"), 110);
  assert.equal(parseMoveAmount("100", "100"), 10000);
  const refused: [unknown, RegExp][] = [
    [0, /more than 0/],
    ["0.00", /more than 0/],
    [-1, /must not be negative/],
    ["1.005", /at most 2 decimal places/],
    ["100.01", /at most \$100\.00/],
    ["1e2", /plain decimal number/],
    [Number.NaN, /finite number/],
    ["", /plain decimal number/],
  ];
  for (const [input, message] of refused) {
    assert.throws(() => parseMoveAmount(input as string, "100"), (e: Error) => {
      assert.ok(e instanceof ValidationError, String(input));
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("[balance] markups need mlbb, mlbb_global and mlbb_special; percents are plain, 0 to 1000", () => {
  assert.deepEqual(
    normalizeMarkup({ mlbb: "5", mlbb_global: 0, mlbb_special: 7.25, pubgm: "3.5" }),
    {
      mlbb: 5,
      mlbb_global: 0,
      mlbb_special: 7.25,
      pubgm: 3.5,
    },
  );
  assert.throws(
    () => normalizeMarkup({ mlbb: 1 }),
    /Price Markup % is required for mlbb_global, mlbb_special/,
  );
  const base = { mlbb: 1, mlbb_global: 1, mlbb_special: 1 };
  assert.throws(() => normalizeMarkup({ ...base, pubgm: -1 }), /markup pubgm must not be negative/);
  assert.throws(() => normalizeMarkup({ ...base, pubgm: "1000.5" }), /at most 1000 %/);
  assert.throws(() => normalizeMarkup({ ...base, pubgm: "abc" }), /plain decimal number/);
});
