// Display names of the suppliers and of EliteDias game codes. Orders and games carry the spec's
// code names for the suppliers ('elephant', 'monkey'); screens and mails name them as their
// operators know them. EliteDias lists games by code (elitedias_games_data), so the Suppliers
// screen names the games it knows and shows the code beside the name.

/** The spec's supplier code names → the suppliers' own names. */
const SUPPLIER_NAMES: Record<string, string> = {
  elephant: "EliteDias",
  monkey: "MooGold",
};

/** A supplier's own name ("elephant" → "EliteDias"); any other name as it is. */
export function supplierDisplayName(supplier: string): string {
  return SUPPLIER_NAMES[supplier] ?? supplier;
}

/** EliteDias game code → the game's name (codes from external-apis.md §2 and the simulator). */
const ELITEDIAS_GAME_NAMES: Record<string, string> = {
  mlbb: "Mobile Legends",
  mlbb_special: "Mobile Legends (special)",
  mlbb_global: "Mobile Legends (global)",
  mlbb_exclusive: "Mobile Legends (exclusive)",
  mlbb_exclusive_global: "Mobile Legends (exclusive global)",
  pubgm: "PUBG Mobile",
  genshin: "Genshin Impact",
  hok: "Honor of Kings",
  honkai_star_rail: "Honkai: Star Rail",
};

/** The name of an EliteDias game code, or the code itself when the name is not known. */
export function elitediasGameName(code: string): string {
  return ELITEDIAS_GAME_NAMES[code] ?? code;
}
