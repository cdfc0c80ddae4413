import assert from "node:assert/strict";
import {
  assertCents,
  centsMinusDecimalString,
  centsToAmountString,
  centsToDollars,
  centsToDollarString,
  dollarsToCents,
  MAX_CENTS,
  MoneyFormatError,
  parseDecimal,
} from "../../src/domain/money.ts";

Deno.test("[money] a decimal string parses to exact scaled units", () => {
  assert.deepEqual(parseDecimal("12.3456"), { units: 123456n, scale: 4 });
  assert.deepEqual(parseDecimal("0.07"), { units: 7n, scale: 2 });
  assert.deepEqual(parseDecimal("1.9"), { units: 19n, scale: 1 });
});

Deno.test("[money] a JSON number parses through its shortest text, not its binary value", () => {
  assert.deepEqual(parseDecimal(1.1), { units: 11n, scale: 1 });
  assert.deepEqual(parseDecimal(0.3), { units: 3n, scale: 1 });
  assert.deepEqual(parseDecimal(42), { units: 42n, scale: 0 });
});

Deno.test("[money] NaN, Infinity and exponent-notation numbers are refused", () => {
  assert.throws(() => parseDecimal(NaN), /finite/);
  assert.throws(() => parseDecimal(Infinity), /finite/);
  assert.throws(() => parseDecimal(1e21), /too large or too small/);
  assert.throws(() => parseDecimal(1e-7), /too large or too small/);
  assert.throws(() => parseDecimal("1e3"), MoneyFormatError);
});

Deno.test("[money] text that is not a plain decimal is refused with the label in the message", () => {
  for (
    const bad of ["", "abc", "1.2.3", ".5", "5.", " 1", "1,000", "+1", "0x10"]
  ) {
    assert.throws(
      () => parseDecimal(bad, { label: "cost" }),
      (error: unknown) => error instanceof MoneyFormatError && error.message.startsWith("cost "),
      bad,
    );
  }
});

Deno.test("[money] non-numeric runtime values (null from JSON) are refused", () => {
  assert.throws(
    () => parseDecimal(null as unknown as string),
    /must be a number or a decimal string/,
  );
});

Deno.test("[money] negatives are refused unless allowed", () => {
  assert.throws(() => parseDecimal("-1.5"), /must not be negative/);
  assert.deepEqual(parseDecimal("-1.5", { allowNegative: true }), {
    units: -15n,
    scale: 1,
  });
  assert.deepEqual(parseDecimal("-0"), { units: 0n, scale: 0 });
});

Deno.test("[money] float noise past 12 decimals and huge values are refused", () => {
  assert.throws(() => parseDecimal(0.1 + 0.2), /at most 12 decimal places/);
  assert.throws(() => parseDecimal("1234567890123456"), /too large/);
  assert.throws(() => parseDecimal("1".repeat(65)), /too long/);
});

Deno.test("[money] dollars convert to integer cents exactly", () => {
  assert.equal(dollarsToCents("1.10"), 110);
  assert.equal(dollarsToCents(1.1), 110);
  assert.equal(dollarsToCents(4.35), 435);
  assert.equal(dollarsToCents(1.15), 115);
  assert.equal(dollarsToCents(12), 1200);
  assert.equal(dollarsToCents("0"), 0);
  assert.equal(dollarsToCents("9999999999999.99"), MAX_CENTS);
});

Deno.test("[money] a dollar amount with more than two decimals is refused, not rounded", () => {
  assert.throws(
    () => dollarsToCents("1.234", "amount"),
    {
      name: "MoneyFormatError",
      message: 'amount must have at most 2 decimal places, got "1.234"',
    },
  );
  assert.throws(() => dollarsToCents(0.005), /at most 2 decimal places/);
});

Deno.test("[money] a negative or over-limit dollar amount is refused", () => {
  assert.throws(
    () => dollarsToCents(-5, "top-up amount"),
    /top-up amount must not be negative/,
  );
  assert.throws(() => dollarsToCents("10000000000000.00"), /too large/);
});

Deno.test("[money] cents convert to a JSON dollar number with at most two decimals", () => {
  assert.equal(centsToDollars(110), 1.1);
  assert.equal(centsToDollars(123450), 1234.5);
  assert.equal(centsToDollars(7), 0.07);
  assert.equal(centsToDollars(0), 0);
  assert.equal(centsToDollars(-150), -1.5);
  assert.equal(JSON.stringify(centsToDollars(MAX_CENTS)), "9999999999999.99");
});

Deno.test("[money] cents that are not whole or out of range are refused", () => {
  assert.throws(() => centsToDollars(1.5), MoneyFormatError);
  assert.throws(() => centsToDollars(NaN), MoneyFormatError);
  assert.throws(
    () => assertCents(MAX_CENTS + 1, "balance"),
    /balance must be a whole number of cents/,
  );
  assert.doesNotThrow(() => assertCents(-MAX_CENTS));
});

Deno.test("[money] balances show two decimals with thousands separators and a $ prefix", () => {
  assert.equal(centsToDollarString(123450), "$1,234.50");
  assert.equal(centsToDollarString(0), "$0.00");
  assert.equal(centsToDollarString(5), "$0.05");
  assert.equal(centsToDollarString(100000000), "$1,000,000.00");
  assert.equal(centsToDollarString(-150), "-$1.50");
});

Deno.test("[money] an amount formats without the symbol", () => {
  assert.equal(centsToAmountString(123450), "1,234.50");
  assert.equal(centsToAmountString(99999), "999.99");
  assert.equal(centsToAmountString(-123456789), "-1,234,567.89");
});

Deno.test("[money] profit is the amount minus the supplier cost, exactly (spec §9)", () => {
  assert.equal(centsMinusDecimalString(152, "1.4035"), "0.1165");
  assert.equal(centsMinusDecimalString(320, "2.9"), "0.30");
  assert.equal(centsMinusDecimalString(30, 0.1), "0.20", "no 0.19999999999999998");
  assert.equal(centsMinusDecimalString(100, "1.25"), "-0.25", "a loss shows as negative");
  assert.equal(centsMinusDecimalString(5, "5"), "-4.95");
  assert.equal(centsMinusDecimalString(100_000_00, "0"), "100000.00");
});
