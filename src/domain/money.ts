// The one place money is parsed and formatted. Balances and charged amounts are integer cents;
// supplier costs and percents stay exact decimals (scaled BigInt). No float arithmetic anywhere.
// Names say the unit they take and give (centsToDollarString, dollarsToCents). Pure: the supplier
// simulators use it too.

import { ValidationError } from "./errors.ts";

/** An amount, cost or percent that cannot be used as money: malformed, negative, too precise or too large. */
export class MoneyFormatError extends ValidationError {
  override name = "MoneyFormatError";
}

/** A decimal as it arrives: a string such as "12.3456", or a JSON number such as 1.1. */
export type DecimalInput = string | number;

/** An exact decimal whose value is units / 10^scale. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

/** How strictly parseDecimal reads its input. */
export interface ParseDecimalOptions {
  /** What the value is, named in error messages ("cost", "markup %"). */
  label?: string;
  /** Most digits allowed after the decimal point. */
  maxDecimals?: number;
  /** Whether a value below zero is accepted. */
  allowNegative?: boolean;
}

// More places than this carries float noise (0.30000000000000004), not a supplier's price.
export const MAX_DECIMAL_PLACES = 12;

// Every decimal with at most 15 significant digits survives a round trip through a JS number,
// so capping cents here keeps centsToDollars exact (and well inside Number.MAX_SAFE_INTEGER).
export const MAX_CENTS = 999_999_999_999_999;

const MAX_INTEGER_DIGITS = 15;
const MAX_INPUT_LENGTH = 64;
const DECIMAL_PATTERN = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Parses a decimal string or JSON number into an exact scaled BigInt, without float math. */
export function parseDecimal(
  input: DecimalInput,
  options: ParseDecimalOptions = {},
): ExactDecimal {
  const label = options.label ?? "amount";
  const maxDecimals = options.maxDecimals ?? MAX_DECIMAL_PLACES;
  const text = readDecimalText(input, label);
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) {
    throw new MoneyFormatError(
      `${label} must be a plain decimal number such as 12.34, got ${describe(input)}`,
    );
  }
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > maxDecimals) {
    throw new MoneyFormatError(
      `${label} must have at most ${maxDecimals} decimal places, got ${describe(input)}`,
    );
  }
  if (whole.replace(/^0+(?=\d)/, "").length > MAX_INTEGER_DIGITS) {
    throw new MoneyFormatError(`${label} is too large, got ${describe(input)}`);
  }
  const magnitude = BigInt(whole + fraction);
  if (sign !== undefined && magnitude > 0n && !options.allowNegative) {
    throw new MoneyFormatError(
      `${label} must not be negative, got ${describe(input)}`,
    );
  }
  return {
    units: sign === undefined ? magnitude : -magnitude,
    scale: fraction.length,
  };
}

/** Converts a dollar amount (at most two decimals, not negative) into integer cents. */
export function dollarsToCents(input: DecimalInput, label = "amount"): number {
  const { units, scale } = parseDecimal(input, { label, maxDecimals: 2 });
  const cents = units * 10n ** BigInt(2 - scale);
  if (cents > BigInt(MAX_CENTS)) {
    throw new MoneyFormatError(`${label} is too large, got ${describe(input)}`);
  }
  return Number(cents);
}

/** A decimal dollar amount of any precision (a sum of supplier costs) to the nearest cent, half up. */
export function decimalToNearestCents(input: DecimalInput, label = "amount"): number {
  const { units, scale } = parseDecimal(input, { label });
  const cents = scale <= 2
    ? units * 10n ** BigInt(2 - scale)
    : (units + 5n * 10n ** BigInt(scale - 3)) / 10n ** BigInt(scale - 2);
  if (cents > BigInt(MAX_CENTS)) {
    throw new MoneyFormatError(`${label} is too large, got ${describe(input)}`);
  }
  return Number(cents);
}

/** Checks that a value is a whole number of cents within the supported range. */
export function assertCents(value: number, label = "amount"): void {
  if (!Number.isSafeInteger(value) || Math.abs(value) > MAX_CENTS) {
    throw new MoneyFormatError(
      `${label} must be a whole number of cents, got ${String(value)}`,
    );
  }
}

/** Converts integer cents into the JSON dollar number with at most two decimals (110 → 1.1). */
export function centsToDollars(cents: number): number {
  const { negative, whole, fraction } = splitCents(cents);
  // Parsing the exact decimal text is exact here: MAX_CENTS keeps it within 15 significant digits.
  return Number(`${negative ? "-" : ""}${whole}.${fraction}`);
}

/** Integer cents as plain decimal text with two places, as suppliers send prices (190 → "1.90"). */
export function centsToDecimalString(cents: number): string {
  const { negative, whole, fraction } = splitCents(cents);
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** Integer cents with two decimals and thousands separators, without a symbol ("1,234.50"). */
export function centsToAmountString(cents: number): string {
  const { negative, whole, fraction } = splitCents(cents);
  return `${negative ? "-" : ""}${groupThousands(whole)}.${fraction}`;
}

/** Integer cents for display with the spec's $ prefix ("$1,234.50", "-$1.50"). */
export function centsToDollarString(cents: number): string {
  const { negative, whole, fraction } = splitCents(cents);
  return `${negative ? "-" : ""}$${groupThousands(whole)}.${fraction}`;
}

function readDecimalText(input: DecimalInput, label: string): string {
  if (typeof input === "number") {
    if (!Number.isFinite(input)) {
      throw new MoneyFormatError(
        `${label} must be a finite number, got ${String(input)}`,
      );
    }
    // The shortest round-trip text is the decimal the sender wrote (1.1, not 1.100000000000000088…).
    const text = String(input);
    if (text.includes("e")) {
      throw new MoneyFormatError(
        `${label} is too large or too small, got ${text}`,
      );
    }
    return text;
  }
  if (typeof input !== "string") {
    throw new MoneyFormatError(
      `${label} must be a number or a decimal string, got ${describe(input)}`,
    );
  }
  if (input.length > MAX_INPUT_LENGTH) {
    throw new MoneyFormatError(
      `${label} is too long (${input.length} characters)`,
    );
  }
  return input;
}

function splitCents(
  cents: number,
): { negative: boolean; whole: string; fraction: string } {
  assertCents(cents);
  const digits = String(Math.abs(cents)).padStart(3, "0");
  return {
    negative: cents < 0,
    whole: digits.slice(0, -2),
    fraction: digits.slice(-2),
  };
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

function describe(input: unknown): string {
  return typeof input === "string" ? JSON.stringify(input.slice(0, 40)) : String(input);
}

/**
 * Integer cents minus an exact decimal (a supplier cost), as decimal text with at least two
 * places: the profit of an order (spec §9: profit = amount − cost), 152 − "1.4035" → "0.1165".
 */
export function centsMinusDecimalString(cents: number, value: DecimalInput): string {
  const decimal = parseDecimal(value, { label: "cost", allowNegative: true });
  const scale = Math.max(2, decimal.scale);
  const difference = BigInt(cents) * 10n ** BigInt(scale - 2) -
    decimal.units * 10n ** BigInt(scale - decimal.scale);
  const negative = difference < 0n;
  const digits = (negative ? -difference : difference).toString().padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
