// The Mobile Legends package choice (spec §4 "Verification outcome and package choice"), shared by
// the consumer and reseller paths so both always pick the same package for the same account.

/** The Mobile Legends packages; mlbb is the standard one. */
export const MLBB_PACKAGES = ["mlbb", "mlbb_special", "mlbb_global"] as const;

/** One Mobile Legends package name. */
export type MlbbPackage = typeof MLBB_PACKAGES[number];

/** The verification error text that means a stock problem rather than a bad account (spec §4). */
export const GAME_UNDER_MAINTENANCE_ERROR = "Game is under maintenance";

/** Banner title for an account that failed verification (spec §2, §8). */
export const INVALID_USER_TITLE = "Invalid user";

/** Banner detail for an account that failed verification (spec §2, §8). */
export const INVALID_USER_DETAIL = "Please check and try again.";

/** Banner detail for a stock problem (spec §2, §8). */
export const OUT_OF_STOCK_DETAIL = "Please try again later.";

/** What the verification call and the catalogue say about one account. */
export interface PackageChoiceInput {
  /** The verify response's mlbb_global was 'valid'. */
  globalValid: boolean;
  /** The verify response's mlbb_special was 'valid'. */
  specialValid: boolean;
  /**
   * The error text of the verification call as a whole, if it failed; blank means no error.
   * Not the per-package error1/error2: a package that does not know the account is just not valid.
   */
  errorText?: string;
  /** The account's region from the verify response. */
  region?: string;
  /** The account (userID and serverID) is on the restricted list for the mlbb package. */
  isRestricted: boolean;
  /** Whether each package is marked out of stock in the catalogue. */
  outOfStock: Readonly<Record<MlbbPackage, boolean>>;
}

/** The outcome: items of one package, the out-of-stock banner, or the 'Invalid user' banner. */
export type PackageChoice =
  | { kind: "ok"; package: MlbbPackage }
  | { kind: "out_of_stock"; package?: MlbbPackage }
  | { kind: "invalid" };

/**
 * Chooses the Mobile Legends package for a verified account, or the banner to show instead.
 *
 * Any error text wins over the validity flags, as spec §4 rules 4 and 5 apply "on errors" without
 * condition: maintenance is a stock problem, anything else an invalid user. The out-of-stock result
 * still names the package the flags would pick, when there is one, for the banner.
 */
export function chooseMlbbPackage(input: PackageChoiceInput): PackageChoice {
  const chosen = pickPackage(input);
  const errorText = input.errorText?.trim() ?? "";
  if (errorText.toLowerCase() === GAME_UNDER_MAINTENANCE_ERROR.toLowerCase()) {
    return chosen === null ? { kind: "out_of_stock" } : { kind: "out_of_stock", package: chosen };
  }
  if (errorText !== "" || chosen === null) return { kind: "invalid" };
  if (input.outOfStock[chosen]) {
    return { kind: "out_of_stock", package: chosen };
  }
  return { kind: "ok", package: chosen };
}

/** Formats the out-of-stock banner title for a game or package name (spec §2, §8). */
export function formatOutOfStockTitle(name: string): string {
  return `Items for ${name} are currently Out of Stock / Under Maintenance.`;
}

function pickPackage(input: PackageChoiceInput): MlbbPackage | null {
  const { globalValid, specialValid, outOfStock } = input;
  if (globalValid && specialValid && !outOfStock.mlbb) {
    const isPhilippines = input.region?.trim().toLowerCase() === "philippines";
    return isPhilippines || input.isRestricted ? "mlbb_special" : "mlbb";
  }
  if (specialValid) return "mlbb_special";
  if (globalValid) return "mlbb_global";
  return null;
}
