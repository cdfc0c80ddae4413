// The supplier port: what the order workflow and the catalogue ask of any supplier, and the one
// vocabulary its answers are reduced to. Each supplier implements it in its own folder, where its
// wire shapes, field labels and caches stay; the domain decides on verdicts and capability flags
// and never on a supplier's name.
import type { SupplierError, SupplierErrorKind, SupplierOrderStatus } from "./fetch-json.ts";

/**
 * What one supplier call taught us about an order. `review`: only an operator can tell (the
 * order goes to Needs review and is never sent again on its own). `later`: the supplier refused
 * the create before making anything (its rate limit), so it is sent again, after `retryAfterMs`
 * when the supplier named a wait.
 */
export type SupplierVerdict =
  | { kind: "accepted"; supplierOrderId: string; status: SupplierOrderStatus }
  | { kind: "failed"; reason: string }
  | { kind: "unknown"; reason: string }
  | { kind: "review"; reason: string }
  | { kind: "later"; reason: string; retryAfterMs?: number };

/** A verdict that is not an accepted order: why a create was not built, or not taken. */
export type NotAccepted = Exclude<SupplierVerdict, { kind: "accepted" }>;

/**
 * A supplier's own refusal (or a 4xx) is definitive: the item was not delivered. Timeouts,
 * network errors, 5xx and garbage are uncertain: the order may exist, so nothing is refunded
 * until a status check knows.
 */
export function classify(error: SupplierError): { kind: "failed" | "unknown"; reason: string } {
  const definitive = error.kind === "supplier" ||
    (error.kind === "http" && String(error.code ?? "").startsWith("4"));
  const reason = `${error.kind}${error.code ? ` ${error.code}` : ""}: ${error.message}`;
  return definitive ? { kind: "failed", reason } : { kind: "unknown", reason };
}

/** An order as a supplier needs it: our id is the reference every supplier is given. */
export interface SupplierOrder {
  id: string;
  userId: string;
  serverId: string;
  /** The account's name as its check returned it. */
  userName: string;
  /** The supplier's game code the order is sent under (a package's, for Mobile Legends). */
  gameCode: string | null;
  /** The supplier's key of the item. */
  denom: string;
  /** The supplier's product id of the game, for suppliers that key orders by product. */
  productId: string | null;
  /** The supplier's id of the order, once it accepted it. */
  supplierOrderId: string | null;
}

/** A create ready to send, or why none could be built (nothing went out). */
export type PreparedCreate = (() => Promise<SupplierVerdict>) | NotAccepted;

/** What asking by our reference found: the order, the supplier's word that it has none, or no answer. */
export type ReferenceLookup =
  | { kind: "found"; verdict: Extract<SupplierVerdict, { kind: "accepted" }> }
  | { kind: "absent"; reason: string }
  | { kind: "unknown"; reason: string };

/** How a supplier knows a game: its game code, or its product id. */
export interface SupplierGame {
  supplierName: string;
  supplierGameId: string | null;
}

/** An account the buyer typed. */
export interface SupplierAccount {
  userid: string;
  /** "" when the game needs no server. */
  serverid: string;
  /** "" when the buyer typed none. */
  characterName: string;
}

/** A supplier's word on an account: `errorText` is its refusal's text, "" without one. */
export interface AccountAnswer {
  valid: boolean;
  userName: string;
  errorText: string;
  /** Not valid because the supplier could not check the account, rather than refused it. */
  undecided?: boolean;
  /** The account's region, where the supplier tells it. */
  region?: string;
}

/**
 * An account check: the supplier's answer reduced (`answer`) and as the spec's verify route of
 * that supplier presents it (`presented`); `unanswered` is why the supplier could not be asked.
 */
export type AccountCheckResult =
  | { ok: true; answer: AccountAnswer; presented: unknown }
  | { ok: false; unanswered: string };

/** What the supplier sells now: selection key → cost text, default display name, its own id. */
export type SupplierOffer = Map<string, { cost: string; name: string; id?: string }>;

/** What launching a game reads of the supplier: its order fields and its own name and notes. */
export interface LaunchDetails {
  fields: string[];
  supplierName: string;
  supplierNotes: string;
  supplierGameId: string;
}

/** What a supplier can do beyond the calls every supplier answers. */
export interface SupplierCapabilities {
  /**
   * The supplier can be asked for an order by our reference, so a create whose answer was lost
   * can be looked up and, when absent, sent again; without it such an order goes to an operator.
   */
  findsByOurReference: boolean;
  /**
   * The supplier's account refusal 'Game is under maintenance' blocks a placement as out of
   * stock (spec §4); otherwise every refusal is an invalid user there.
   */
  reportsMaintenanceOnOrder: boolean;
}

/** What is known of a supplier without asking it. */
export interface SupplierProfile {
  /** The key the database stores in games.supplier and orders.supplier. */
  key: string;
  /** The supplier's name in operators' and buyers' words. */
  name: string;
  /** The supplier's name in logs, metrics labels and settings ('moogold'). */
  vendor: string;
  /** The currency our balance there is kept in (shown before its first reading). */
  balanceCurrency: string;
  capabilities: SupplierCapabilities;
  /** Which of a game's keys the supplier's routes and orders name it by: its code or its id. */
  gameKey: "supplierName" | "supplierGameId";
  /** The game has what this supplier needs to take its orders. */
  takesOrdersFor(game: SupplierGame): boolean;
  /** The supplier's key of an item, as orders store it in `denom`. */
  itemKey(item: { id?: string; nameSupplier: string }): string;
}

/**
 * The prepaid balance at a supplier as exact decimal text, or why it could not be read: the
 * failed call's kind and code too, for the doctor's words on it.
 */
export type BalanceAnswer =
  | { ok: true; balance: string; currency: string }
  | { ok: false; error: string; kind: SupplierErrorKind; code?: string };

/** A failed call's answer to a balance read. */
export function balanceFailure(error: SupplierError): Extract<BalanceAnswer, { ok: false }> {
  return { ok: false, error: error.message, kind: error.kind, code: error.code };
}

/** One supplier, as every part of the app asks it. */
export interface SupplierPort extends SupplierProfile {
  prepareCreate(order: SupplierOrder): Promise<PreparedCreate>;
  /** Where an order stands at the supplier (by its id, or as the supplier can find it). */
  track(order: SupplierOrder): Promise<SupplierVerdict>;
  /** Present exactly when `capabilities.findsByOurReference`. */
  findByOurReference?(orderId: string): Promise<ReferenceLookup>;
  checkAccount(game: SupplierGame, account: SupplierAccount): Promise<AccountCheckResult>;
  /** The offer of a game (or of a Mobile Legends package's code); null without an answer. */
  readOffer(game: SupplierGame): Promise<SupplierOffer | null>;
  /** The game's named servers (label → value), empty without a list, null without an answer. */
  readServers(game: SupplierGame): Promise<Record<string, string> | null>;
  /** What launching the game named by `game` (a code or a product id) reads; null without an answer. */
  readLaunchDetails(game: string): Promise<LaunchDetails | null>;
  /** Our prepaid balance at the supplier. */
  readBalance(): Promise<BalanceAnswer>;
}
