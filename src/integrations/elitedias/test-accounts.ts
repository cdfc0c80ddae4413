// Game accounts the simulators recognise. The Mobile Legends table lives here because EliteDias is
// the supplier with the three MLBB packages; the MooGold simulator reuses it so one account gives
// the same answer whichever supplier is asked.
//
// Region: a valid checkid answer for mlbb, mlbb_global and mlbb_special carries an extra field
// `region`, a lowercase English country name ("philippines", "malaysia", …). The app's package
// choice reads it from either answer; an invalid or error answer has no region.

/** One scripted Mobile Legends account and what checkid says about it. */
export interface MlbbTestAccount {
  userId: string;
  serverId: string;
  /** Nickname returned when any package answers valid. */
  name: string | null;
  /** checkid on mlbb_global answers valid. */
  globalValid: boolean;
  /** checkid on mlbb_special answers valid. */
  specialValid: boolean;
  /** The `region` field of valid answers. */
  region: string | null;
  /** The `error` text of an answer `{valid: "error"}`. */
  error: string | null;
  /** The outcome in words, for the README. */
  outcome: string;
}

/** Scripted MLBB accounts; a known User ID with any other Server ID is invalid, as in the game. */
export const MLBB_TEST_ACCOUNTS: readonly MlbbTestAccount[] = [
  {
    userId: "11111111",
    serverId: "1111",
    name: "KaguraMain",
    globalValid: true,
    specialValid: true,
    region: "malaysia",
    error: null,
    outcome: "global and special valid, region not philippines",
  },
  {
    userId: "22222222",
    serverId: "2222",
    name: "ManilaMage",
    globalValid: true,
    specialValid: true,
    region: "philippines",
    error: null,
    outcome: "global and special valid, region philippines",
  },
  {
    userId: "33333333",
    serverId: "3333",
    name: "SpecialOnly",
    globalValid: false,
    specialValid: true,
    region: "indonesia",
    error: null,
    outcome: "special valid only",
  },
  {
    userId: "44444444",
    serverId: "4444",
    name: "GlobalOnly",
    globalValid: true,
    specialValid: false,
    region: "singapore",
    error: null,
    outcome: "global valid only",
  },
  {
    userId: "55555555",
    serverId: "5555",
    name: null,
    globalValid: false,
    specialValid: false,
    region: null,
    error: null,
    outcome: "neither valid ('Invalid user')",
  },
  {
    userId: "66666666",
    serverId: "6666",
    name: null,
    globalValid: false,
    specialValid: false,
    region: null,
    error: "Game is under maintenance",
    outcome: "error 'Game is under maintenance'",
  },
];

/** The EliteDias game codes that are Mobile Legends packages. */
export const MLBB_GAMES = ["mlbb", "mlbb_global", "mlbb_special"] as const;

/** One of the MLBB package game codes. */
export type MlbbGame = (typeof MLBB_GAMES)[number];

/** What a simulator's account check concludes, in EliteDias checkid terms. */
export interface AccountCheck {
  valid: "valid" | "invalid" | "error";
  name?: string;
  error?: string;
  region?: string;
}

const GENERATED_REGIONS = ["malaysia", "singapore", "indonesia", "thailand"];
const NAME_HEADS = ["Swift", "Silent", "Crimson", "Lucky", "Frost", "Iron", "Shadow", "Golden"];
const NAME_TAILS = ["Phoenix", "Tiger", "Lancer", "Ranger", "Mage", "Falcon", "Blade", "Comet"];

/** Checks an MLBB account the way checkid on `game` would; `mlbb` is valid if either package is. */
export function checkMlbbAccount(game: MlbbGame, userId: string, serverId: string): AccountCheck {
  if (!/^\d+$/.test(userId) || !/^\d+$/.test(serverId)) return { valid: "invalid" };
  const scripted = MLBB_TEST_ACCOUNTS.find((account) => account.userId === userId);
  if (scripted === undefined) {
    const hash = hashText(userId);
    return {
      valid: "valid",
      name: generateNickname(userId),
      region: GENERATED_REGIONS[hash % GENERATED_REGIONS.length],
    };
  }
  if (scripted.serverId !== serverId) return { valid: "invalid" };
  if (scripted.error !== null) return { valid: "error", error: scripted.error };
  const valid = game === "mlbb_global"
    ? scripted.globalValid
    : game === "mlbb_special"
    ? scripted.specialValid
    : scripted.globalValid || scripted.specialValid;
  if (!valid || scripted.name === null || scripted.region === null) return { valid: "invalid" };
  return { valid: "valid", name: scripted.name, region: scripted.region };
}

/** Checks an account of any other game: a User ID starting with "invalid" is refused. */
export function checkOtherAccount(userId: string): AccountCheck {
  if (userId.trim() === "" || userId.startsWith("invalid")) return { valid: "invalid" };
  return { valid: "valid", name: generateNickname(userId) };
}

/** A nickname derived from the User ID alone, so every run and every supplier agree on it. */
function generateNickname(userId: string): string {
  const hash = hashText(userId);
  const head = NAME_HEADS[hash % NAME_HEADS.length];
  const tail = NAME_TAILS[(hash >>> 8) % NAME_TAILS.length];
  return `${head}${tail}${(hash >>> 16) % 1000}`;
}

/** FNV-1a, 32 bits: stable across runs and platforms, unlike anything seeded from the clock. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
