// Account verification and the Mobile Legends package decision (spec §4 "Verification outcome and
// package choice"). Every buyer's path (reseller verify, reseller place order, consumer payment)
// calls `decideMlbbPackage`, so the same account and the same catalogue always get the same answer.
import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import { isRestrictedMlbbUser } from "../../db/repositories/orders.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type {
  AccountAnswer,
  AccountCheckResult,
  SupplierAccount,
  SupplierGame,
  SupplierPort,
} from "../../integrations/supplier-port.ts";
import { requireSupplierPort, supplierPort } from "../../integrations/supplier-registry.ts";
import { MOBILE_LEGENDS_GAME } from "../../integrations/elitedias/port.ts";
import type { GamePackageDto } from "../../shared/game-types.ts";
import { ConflictError, UpstreamError, ValidationError } from "../errors.ts";
import { findMobileLegendsRow, supplierGameOf } from "../catalogue/games.ts";

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
  /** Whether each package is out of stock (see `mlbbStockOf`). */
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

/** The spec's verify answer (§7 Consumer/Reseller verify_id/mlbb). */
export interface MlbbVerification {
  mlbb_global: "valid" | "invalid" | "error";
  mlbb_special: "valid" | "invalid" | "error";
  /** Nickname from the global check. */
  name1: string;
  /** Nickname from the special check. */
  name2: string;
  error1: string;
  error2: string;
  region: string;
}

/** One package's check as the verify answer shows it. */
function packageCheck(
  check: AccountCheckResult,
): { valid: MlbbVerification["mlbb_global"]; name: string; error: string; region?: string } {
  if (!check.ok) return { valid: "error", name: "", error: check.unanswered };
  const { answer } = check;
  return {
    valid: answer.valid ? "valid" : answer.undecided ? "error" : "invalid",
    name: answer.userName,
    error: answer.errorText,
    region: answer.region,
  };
}

/**
 * Asks the supplier of Mobile Legends' packages about the account for the global and the special
 * package at once. A package whose check fails carries its error text; when neither check could
 * be made at all the call fails with the spec's verify failure.
 */
export async function verifyMlbbAccount(
  suppliers: Suppliers,
  userid: string,
  serverid: string,
): Promise<MlbbVerification> {
  const port = requireSupplierPort(suppliers, MOBILE_LEGENDS_GAME.supplier);
  const account = { userid, serverid, characterName: "" };
  const ask = (pkg: MlbbPackage) =>
    port.checkAccount({ supplierName: pkg, supplierGameId: null }, account);
  const [global, special] = await Promise.all([ask("mlbb_global"), ask("mlbb_special")]);
  if (!global.ok && !special.ok) {
    throw new UpstreamError(`Failed to verify ID: ${global.unanswered}`);
  }
  const g = packageCheck(global);
  const s = packageCheck(special);
  return {
    mlbb_global: g.valid,
    mlbb_special: s.valid,
    name1: g.name,
    name2: s.name,
    error1: g.error,
    error2: s.error,
    region: g.region ?? s.region ?? "",
  };
}

/**
 * Spec §4 package choice from a verify answer: the error of the call as a whole is the one shared
 * by both checks when neither is valid (for example 'Game is under maintenance').
 */
export function choosePackageFor(
  v: MlbbVerification,
  options: { isRestricted: boolean; outOfStock: Readonly<Record<MlbbPackage, boolean>> },
): PackageChoice {
  const globalValid = v.mlbb_global === "valid";
  const specialValid = v.mlbb_special === "valid";
  const errorText = !globalValid && !specialValid ? (v.error1 || v.error2) : "";
  return chooseMlbbPackage({
    globalValid,
    specialValid,
    errorText,
    region: v.region,
    isRestricted: options.isRestricted,
    outOfStock: options.outOfStock,
  });
}

/**
 * The one out-of-stock rule for Mobile Legends: a package is out of stock when the game is, when
 * the package is marked so, or when the catalogue has no such package (or no game at all).
 */
export function mlbbStockOf(game: GameRow | undefined): Record<MlbbPackage, boolean> {
  const packages = (game?.packages ?? []) as GamePackageDto[];
  const out = (name: MlbbPackage) =>
    (game?.is_out_of_stock ?? false) ||
    (packages.find((p) => p.name === name)?.isOutOfStock ?? true);
  return { mlbb: out("mlbb"), mlbb_special: out("mlbb_special"), mlbb_global: out("mlbb_global") };
}

/** An account's verify answer and the package decided for it. */
export interface MlbbDecision {
  verification: MlbbVerification;
  choice: PackageChoice;
}

/**
 * Spec §4: verifies a Mobile Legends account with the supplier and decides its package from the
 * answer, the restricted list and the catalogue's stock. Every buyer's verify and order call this.
 */
export async function decideMlbbPackage(
  db: Db,
  suppliers: Suppliers,
  game: GameRow | undefined,
  userid: string,
  serverid: string,
): Promise<MlbbDecision> {
  const [verification, isRestricted] = await Promise.all([
    verifyMlbbAccount(suppliers, userid, serverid),
    isRestrictedMlbbUser(db, userid, serverid),
  ]);
  const choice = choosePackageFor(verification, { isRestricted, outOfStock: mlbbStockOf(game) });
  return { verification, choice };
}

/**
 * The spec's verify answer plus the server's package decision, so the browser shows the items the
 * order will be priced from, and the account's name for that package.
 */
export async function verifyMlbbForOrder(
  db: Db,
  suppliers: Suppliers,
  userid: string,
  serverid: string,
): Promise<MlbbVerification & { choice: PackageChoice; userName: string }> {
  const game = await findMobileLegendsRow(db);
  const { verification, choice } = await decideMlbbPackage(db, suppliers, game, userid, serverid);
  const userName = choice.kind === "ok" ? mlbbUserName(verification, choice.package) : "";
  return { ...verification, choice, userName };
}

/**
 * The package an order is placed under, or the error a buyer sees: 'Invalid user', the
 * out-of-stock banner, or a changed package when the buyer verified before the catalogue moved.
 */
export function packageToOrder(
  game: GameRow,
  choice: PackageChoice,
  requested?: string,
): GamePackageDto {
  if (choice.kind === "invalid") throw new ValidationError(INVALID_USER_TITLE);
  if (choice.kind === "out_of_stock") {
    throw new ConflictError(formatOutOfStockTitle(choice.package ?? game.name));
  }
  if (requested && requested !== choice.package) {
    throw new ConflictError("This account now gets a different package. Please verify it again.");
  }
  return (game.packages as GamePackageDto[]).find((p) => p.name === choice.package)!;
}

/** The Mobile Legends account name for a package: the special check's for mlbb_special. */
export function mlbbUserName(v: MlbbVerification, pkg: string | undefined): string {
  return pkg === "mlbb_special" ? v.name2 || v.name1 : v.name1 || v.name2;
}

/** What a buyer typed for an account of a game other than Mobile Legends. */
export interface GameAccount {
  userid: string;
  /** "" when the game needs no server. */
  serverid: string;
  /** Only MooGold's validate reads it (spec §5: orders never send it). */
  characterName: string;
}

/** An account of a game other than Mobile Legends, as its supplier and the catalogue see it. */
export type AccountCheck =
  | { kind: "ok"; userName: string }
  | { kind: "out_of_stock" }
  | { kind: "invalid" };

/**
 * The game's fields as its order form asks for them: a Server ID when it requires one (one of its
 * named servers when it has a list), a Character Name when it requires one.
 */
export function assertAccountFields(game: GameRow, account: GameAccount): void {
  const servers = Object.values(game.servers ?? {});
  if (game.requires_server_id && !account.serverid) {
    throw new ValidationError("serverid: Server ID is required for this game");
  }
  if (game.requires_server_id && servers.length > 0 && !servers.includes(account.serverid)) {
    throw new ValidationError("serverid: Please choose a server from the list");
  }
  if (game.requires_character_name && !account.characterName) {
    throw new ValidationError("characterName: Character Name is required for this game");
  }
}

const isUnderMaintenance = (text: string) =>
  text.trim().toLowerCase() === GAME_UNDER_MAINTENANCE_ERROR.toLowerCase();

/**
 * Asks `port` about an account: its answer reduced and in the spec's shape of that supplier's
 * verify route. A supplier that cannot be asked is an UpstreamError.
 */
async function askAccount(
  port: SupplierPort,
  game: SupplierGame,
  account: SupplierAccount,
): Promise<{ answer: AccountAnswer; presented: unknown }> {
  const r = await port.checkAccount(game, account);
  if (!r.ok) throw new UpstreamError(`Failed to verify ID: ${r.unanswered}`);
  return r;
}

/**
 * Verifies an account of a launched game with its own supplier, as the reseller's verify does
 * (EliteDias checkid, MooGold validate). 'Game is under maintenance' is a stock problem (spec §4),
 * any other refusal an invalid user; a valid account of a game marked out of stock gets the
 * out-of-stock banner. Consumer verify and consumer payment both call this.
 */
export async function checkGameAccount(
  suppliers: Suppliers,
  game: GameRow,
  account: GameAccount,
): Promise<AccountCheck> {
  const port = supplierPort(suppliers, game.supplier);
  const supplierGame = supplierGameOf(game);
  // No supplier can take an order for this game, so it cannot be stocked.
  if (!port?.takesOrdersFor(supplierGame)) return { kind: "out_of_stock" };
  const { answer } = await askAccount(port, supplierGame, account);
  if (isUnderMaintenance(answer.errorText)) return { kind: "out_of_stock" };
  if (!answer.valid) return { kind: "invalid" };
  if (game.is_out_of_stock) return { kind: "out_of_stock" };
  return { kind: "ok", userName: answer.userName };
}

/**
 * The spec's verify route of one supplier (POST /api/resellers/verify_id: EliteDias checkid for a
 * launched game's code; POST /api/product_validate: MooGold validate for a product id), in that
 * supplier's answer shape.
 */
export async function verifySupplierAccount(
  suppliers: Suppliers,
  supplier: string,
  game: SupplierGame,
  account: SupplierAccount,
): Promise<unknown> {
  return (await askAccount(requireSupplierPort(suppliers, supplier), game, account)).presented;
}

/** The spec's verify answer of the game's own supplier for an account. */
export async function verifyGameAccount(
  suppliers: Suppliers,
  game: GameRow,
  account: SupplierAccount,
): Promise<unknown> {
  const port = supplierPort(suppliers, game.supplier);
  // A game no supplier sells has no account to check anywhere.
  if (!port) throw new UpstreamError("Failed to verify ID: no supplier sells this game");
  return (await askAccount(port, supplierGameOf(game), account)).presented;
}

/**
 * Refuses an order for an account its supplier does not know, as the portal's order flow does
 * after Verify (Mobile Legends decides its package instead, `decideMlbbPackage`): where the
 * supplier reports maintenance on orders (`reportsMaintenanceOnOrder`), 'Game is under
 * maintenance' is the out-of-stock banner; any other answer but valid is 'Invalid user'; a
 * supplier that cannot be asked is an UpstreamError.
 */
export async function assertOrderableAccount(
  suppliers: Suppliers,
  game: GameRow,
  account: SupplierAccount,
): Promise<void> {
  const port = requireSupplierPort(suppliers, game.supplier);
  const { answer } = await askAccount(port, supplierGameOf(game), account);
  if (answer.valid) return;
  if (port.capabilities.reportsMaintenanceOnOrder && isUnderMaintenance(answer.errorText)) {
    throw new ConflictError(formatOutOfStockTitle(game.name));
  }
  throw new ValidationError(INVALID_USER_TITLE);
}
