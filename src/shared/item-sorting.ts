// Spec §2 Edit game 'Optimise Sorting'. Pure code shared by the edit screen and the tests.

const NAME_ORDER = new Intl.Collator("en", { sensitivity: "base" });

/** The first number in a name, reading thousands separators ("1,050 Diamonds" → 1050). */
function readFirstNumber(name: string): bigint | null {
  const match = /\d{1,3}(?:,\d{3})+(?!\d)|\d+/.exec(name);
  return match === null ? null : BigInt(match[0].replaceAll(",", ""));
}

/**
 * Orders items as 'Optimise Sorting' does and returns a new array.
 *
 * Reading: items whose reseller name holds no number come first; the rest follow by the first
 * number in the name, ascending ("86 Diamonds" before "172 Diamonds", "1,050" read as 1050);
 * within the same number, and among the unnumbered items, names sort alphabetically, ignoring case.
 */
export function sortItemsForDisplay<T extends { nameReseller: string }>(
  items: readonly T[],
): T[] {
  const keyed = items.map((item) => ({ item, number: readFirstNumber(item.nameReseller) }));
  keyed.sort((a, b) => {
    if (a.number !== b.number) {
      if (a.number === null) return -1;
      if (b.number === null) return 1;
      return a.number < b.number ? -1 : 1;
    }
    return NAME_ORDER.compare(a.item.nameReseller, b.item.nameReseller);
  });
  return keyed.map(({ item }) => item);
}
