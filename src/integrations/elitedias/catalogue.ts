// The EliteDias simulator's seeded catalogue: fixed game codes, fields, servers and prices, the
// same every run. Prices are decimal text here; `priceFormat` says how the simulator sends them,
// since EliteDias sends JSON numbers for some games and numeric strings for others.

/** A seeded EliteDias game. */
export interface ElitediasSeedGame {
  code: string;
  /** game_fields info.fields: what the top-up and checkid need. */
  fields: string[];
  notes: string;
  /** Server label → value; empty when the player types no server or picks none. */
  servers: Record<string, string>;
  priceFormat: "number" | "string";
  /** Denomination name → price (exact decimal text); empty means "403, no denominations". */
  denominations: Record<string, string>;
}

const MLBB_NOTES = "Enter the User ID and Zone ID shown on your Mobile Legends profile page.";

/** Every game the simulator lists (elitedias_games_data, elitedias_games_available). */
export const ELITEDIAS_CATALOGUE: readonly ElitediasSeedGame[] = [
  {
    code: "mlbb",
    fields: ["userid", "serverid"],
    notes: MLBB_NOTES,
    servers: {},
    priceFormat: "number",
    denominations: {
      "86 Diamonds": "1.52",
      "172 Diamonds": "3.03",
      "257 Diamonds": "4.53",
      "344 Diamonds": "6.05",
      "429 Diamonds": "7.56",
      "514 Diamonds": "9.06",
      "706 Diamonds": "12.10",
      "878 Diamonds": "15.13",
      "2195 Diamonds": "36.20",
      "3688 Diamonds": "60.40",
      "Weekly Diamond Pass": "1.38",
      "Twilight Pass": "6.90",
    },
  },
  {
    code: "mlbb_special",
    fields: ["userid", "serverid"],
    notes: `${MLBB_NOTES} Special region packages; first-recharge bonuses apply once per account.`,
    servers: {},
    priceFormat: "number",
    denominations: {
      "50": "0.78",
      "150": "2.31",
      "250": "3.85",
      "500": "7.66",
      "86 Diamonds": "1.45",
      "172 Diamonds": "2.89",
      "Weekly Diamond Pass": "1.35",
    },
  },
  {
    code: "mlbb_global",
    fields: ["userid", "serverid"],
    notes: `${MLBB_NOTES} Global accounts only.`,
    servers: {},
    priceFormat: "number",
    denominations: {
      "50": "0.85",
      "86 Diamonds": "1.65",
      "172 Diamonds": "3.28",
      "257 Diamonds": "4.89",
      "706 Diamonds": "13.05",
      "2195 Diamonds": "39.10",
      "Weekly Diamond Pass": "1.49",
    },
  },
  {
    code: "mlbb_exclusive",
    fields: ["userid", "serverid"],
    notes: `${MLBB_NOTES} Currently unavailable.`,
    servers: {},
    priceFormat: "number",
    denominations: {},
  },
  {
    code: "genshin",
    fields: ["userid", "serverid"],
    notes: "UID is on the bottom right of the Paimon menu. Pick the server the account plays on.",
    servers: {
      "America": "os_usa",
      "Europe": "os_euro",
      "Asia": "os_asia",
      "TW, HK, MO": "os_cht",
    },
    priceFormat: "number",
    denominations: {
      "60 Genesis Crystals": "0.85",
      "300 + 30 Genesis Crystals": "4.25",
      "980 + 110 Genesis Crystals": "12.80",
      "1980 + 260 Genesis Crystals": "27.60",
      "Blessing of the Welkin Moon": "4.25",
    },
  },
  {
    code: "pubgm",
    fields: ["userid"],
    notes: "Character ID from the PUBG Mobile profile page.",
    servers: {},
    priceFormat: "number",
    denominations: {
      "60 UC": "0.88",
      "325 UC": "4.35",
      "660 UC": "8.70",
      "1800 UC": "21.75",
      "Royale Pass": "8.70",
    },
  },
  {
    code: "honkai_star_rail",
    fields: ["userid", "serverid"],
    notes: "UID is on the phone menu. Pick the server the account plays on.",
    servers: {
      "America": "prod_official_usa",
      "Europe": "prod_official_eur",
      "Asia": "prod_official_asia",
      "TW, HK, MO": "prod_official_cht",
    },
    priceFormat: "number",
    denominations: {
      "60 Oneiric Shards": "0.86",
      "300 + 30 Oneiric Shards": "4.30",
      "980 + 110 Oneiric Shards": "12.90",
      "Express Supply Pass": "4.30",
    },
  },
  {
    code: "hok",
    fields: ["userid"],
    notes: "Player ID from the Honor of Kings profile page.",
    servers: {},
    priceFormat: "string",
    denominations: {
      "16 Tokens": "0.24",
      "80 Tokens": "1.15",
      "240 Tokens": "3.40",
      "400 Tokens": "5.65",
      "Weekly Card": "1.20",
    },
  },
];
