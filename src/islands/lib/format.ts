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

const wholeTick = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});
const centsTick = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const shortTick = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 1,
});

/** A chart's dollar tick, cents only when it has some: 15000 → "$15,000", 0.5 → "$0.50". */
export function dollarsToTickString(amount: number): string {
  return (Number.isInteger(amount) ? wholeTick : centsTick).format(amount);
}

/** A chart's dollar tick where room is short: 15000 → "$15K", 2500 → "$2.5K". */
export function dollarsToShortTickString(amount: number): string {
  return shortTick.format(amount);
}
