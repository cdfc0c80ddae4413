// Display of the dollar amounts the /api sends (JSON numbers with at most two decimals); the
// server's cents are formatted in src/domain/money.ts.
const dollars = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 1234.5 → "1,234.50" (spec §9: balances to 2 decimals with thousands separators). */
export function dollarsToAmountString(amount: number): string {
  return dollars.format(amount);
}

/** A dollar amount with its $ sign: 1234.5 → "$1,234.50". */
export function dollarsToDollarString(amount: number): string {
  return `$${dollarsToAmountString(amount)}`;
}
