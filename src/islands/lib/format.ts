const dollars = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 1234.5 → "1,234.50" (spec §9: balances to 2 decimals with thousands separators). */
export function formatMoney(amount: number): string {
  return dollars.format(amount);
}
