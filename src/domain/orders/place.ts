import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { GameRow, OrderRow } from "../../db/schema.ts";
import { findResellerPublicById } from "../../db/repositories/resellers.ts";
import {
  type AnswerTemplate,
  findGameAndKeptAnswer,
  type KeptAnswer,
  type OrderedGame,
  placeOrderStatement,
} from "../../db/repositories/order-placement.ts";
import { findIdempotencyKey } from "../../db/repositories/idempotency.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameItemDto, GamePackageDto } from "../../shared/game-types.ts";
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import {
  computeResellerPrice,
  formatResellerItemName,
  resellerMarkupFor,
} from "../catalogue/pricing.ts";
import { centsToDollars, centsToDollarString, dollarsToCents } from "../money.ts";
import {
  assertOrderableAccount,
  decideMlbbPackage,
  formatOutOfStockTitle,
  packageToOrder,
} from "./verification.ts";
import { isMobileLegends } from "../catalogue/consumer-catalogue.ts";
import { MOBILE_LEGENDS_GAME } from "../../integrations/elitedias/port.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";
import {
  ConflictError,
  InsufficientBalanceError,
  NotFoundError,
  ValidationError,
} from "../errors.ts";
import { presentResellerOrder } from "./present.ts";
import { currentRequestId } from "../../observability/context.ts";
import { countOrderStep } from "./order-metrics.ts";

export const SUPPLIER_CREATE_JOB = "order.supplier_create";
/** Asks the supplier about an accepted consumer order until it is delivered or failed. */
export const SUPPLIER_STATUS_JOB = "order.supplier_status";

/** What placing an order needs to know of its reseller. */
export interface OrderingReseller {
  id: string;
  name: string;
  markup: Record<string, number>;
  disable_discounts: boolean;
}

/**
 * The game a reseller orders: Mobile Legends, whose package the server decides (spec §4), or a
 * game by its supplier's key and the supplier's own name for it (its code or its product id).
 */
export type OrderedGameKey =
  | { mobileLegends: true }
  | { supplier: string; supplierName?: string; productId?: string };

/** What a reseller asks for; `clientAmount` is only compared, never charged. */
export interface PlaceOrderInput {
  game: OrderedGameKey;
  resellerId: string;
  /**
   * The reseller as the caller read it for this request (the signed-in session's), so it is not
   * read again; absent, it is read by `resellerId`. Its balance is never taken from here: the
   * debit is conditional on the row itself.
   */
  knownReseller?: OrderingReseller;
  /** Reseller may order hidden games (PRIVILEGED_RESELLERS). */
  seesHiddenGames: boolean;
  /** The package the browser chose (Mobile Legends); the server decides it again. */
  package?: string;
  denom: string;
  userid: string;
  serverid: string;
  userName: string;
  clientAmount?: number;
  /**
   * Verify the account with the supplier before charging, for every game (the reseller API: its
   * caller may skip verify); Mobile Legends is always verified, to choose its package.
   */
  verifyAccount?: { characterName: string };
}

/**
 * What placing an order did: `placed` it now, or found it `repeated`: the order an earlier request
 * with the same Idempotency-Key placed.
 */
export interface PlaceOrderResult {
  kind: "placed" | "repeated";
  body: { order: ResellerOrderDto };
  /** The body as sent: the first answer's text, which every repeat of its key sends again. */
  text: string;
}

export interface OrderContext {
  db: Db;
  suppliers: Suppliers;
}

/**
 * Order ids are the supplier reference too: time-ordered, unguessable, short enough to read.
 * The prefix tells reseller ("R") and consumer ("C") orders apart at a glance.
 */
export function newOrderId(prefix: "R" | "C" = "R"): string {
  const random = BigInt("0x" + randomBytes(5).toString("hex")).toString(36).toUpperCase();
  return `${prefix}${Date.now().toString(36).toUpperCase()}${random.padStart(8, "0")}`;
}

/** The game an order names, as the placement's read finds it. */
function orderedGame(key: OrderedGameKey): OrderedGame {
  if ("mobileLegends" in key) return { ...MOBILE_LEGENDS_GAME, productId: null };
  return {
    supplier: key.supplier,
    supplierName: key.supplierName ?? null,
    productId: key.productId ?? null,
  };
}

/** How a placement names a launched game: by the key its supplier names it by. */
export function orderedGameKeyOf(game: GameRow): OrderedGameKey {
  if (isMobileLegends(game)) return { mobileLegends: true };
  return supplierProfile(game.supplier)?.gameKey === "supplierName"
    ? { supplier: game.supplier, supplierName: game.supplier_name }
    : { supplier: game.supplier, productId: game.supplier_game_id ?? "" };
}

/** Whether the placement decides a Mobile Legends package. */
function decidesPackage(input: PlaceOrderInput): boolean {
  return "mobileLegends" in input.game;
}

/** Spec §4: the server verifies Mobile Legends accounts itself and picks the package. */
async function decideMlbbOrderPackage(ctx: OrderContext, game: GameRow, input: PlaceOrderInput) {
  const { choice } = await decideMlbbPackage(
    ctx.db,
    ctx.suppliers,
    game,
    input.userid,
    input.serverid,
  );
  return packageToOrder(game, choice, input.package);
}

/** Refuses a price the browser showed that is not the server's (never charges the client's). */
export function assertClientPrice(clientAmount: number, priceCents: number): void {
  if (dollarsToCents(clientAmount) !== priceCents) {
    throw new ConflictError(
      `The price of this item is now ${
        centsToDollarString(priceCents)
      }. Please check and order again.`,
      { price: centsToDollars(priceCents) },
    );
  }
}

/**
 * How the supplier knows an order's game and item: EliteDias by game code (the package's, for
 * Mobile Legends) and denomination name, MooGold by variation id. Reseller and consumer orders
 * both store these.
 */
export function supplierKeysOf(
  game: GameRow,
  item: GameItemDto,
  pkg?: GamePackageDto,
): { package_ed_name: string | null; denom: string } {
  const supplier = supplierProfile(game.supplier);
  return {
    package_ed_name: pkg?.supplierPackageName ??
      (supplier?.gameKey === "supplierName" ? game.supplier_name : null),
    denom: supplier?.itemKey(item) ?? item.nameSupplier,
  };
}

function findItem(items: GameItemDto[], denom: string): GameItemDto {
  const item = items.find((i) => i.nameSupplier === denom && !i.isHiddenReseller);
  if (!item) throw new NotFoundError("Item not found");
  return item;
}

/**
 * The ordered game as a placement's fingerprint names it: a key repeated through any door (the
 * portal's routes, the API) for the same game gets the same fingerprint.
 */
function fingerprintGame(key: OrderedGameKey): [string, string | undefined, string | undefined] {
  return "mobileLegends" in key
    ? ["mlbb", undefined, undefined]
    : [key.supplier, key.supplierName, key.productId];
}

function fingerprintOf(input: PlaceOrderInput): string {
  const { package: pkg, denom, userid, serverid, clientAmount } = input;
  return createHash("sha256")
    .update(
      JSON.stringify([
        ...fingerprintGame(input.game),
        pkg,
        denom,
        userid,
        serverid,
        clientAmount,
      ]),
    )
    .digest("hex");
}

const inFlight = new Map<string, Promise<void>>();

/**
 * Runs `check` once for all the concurrent calls of one key in this process, each sharing its
 * outcome: a client repeating an order at once (50 times, in a test) makes one supplier call, not
 * one each, before the debit's claim picks the one order.
 */
async function onceInFlight(key: string, check: () => Promise<void>): Promise<void> {
  const running = inFlight.get(key);
  if (running) return await running;
  const started = check().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return await started;
}

/**
 * The answer first given under a key, sent again as it was (the same text); a different input
 * under the key is a conflict.
 */
function replayOf(kept: KeptAnswer, fingerprint: string): PlaceOrderResult {
  if (kept.fingerprint !== fingerprint) {
    throw new ConflictError("This Idempotency-Key was used for a different order");
  }
  if (kept.text === null) throw new Error("An order's Idempotency-Key holds no answer");
  return { kind: "repeated", body: JSON.parse(kept.text), text: kept.text };
}

/**
 * An order before its placement statement gives it its balances and its moment (a reseller's
 * order is never paid through HitPay: it has no payment id).
 */
type UnplacedOrder = Omit<
  OrderRow,
  "old_balance_cents" | "new_balance_cents" | "created_at" | "updated_at" | "payment_id"
>;

/**
 * The answer to a new order as text, with holes where the placement statement writes what only
 * its debit decides: the moment and the balances before and after. The holes are unique to this
 * call, so no text of the order (a player's name, say) can be taken for one.
 */
function answerTemplate(order: UnplacedOrder): AnswerTemplate {
  const unique = crypto.randomUUID();
  const holes = {
    date: `date ${unique}`,
    oldBalance: `old ${unique}`,
    newBalance: `new ${unique}`,
  };
  const moment = new Date(0);
  const dto = presentResellerOrder({
    ...order,
    payment_id: null,
    old_balance_cents: 0,
    new_balance_cents: 0,
    created_at: moment,
    updated_at: moment,
  });
  const text = JSON.stringify({
    order: {
      ...dto,
      date: holes.date,
      reseller: { ...dto.reseller, oldBalance: holes.oldBalance, newBalance: holes.newBalance },
    },
  });
  // The balances are JSON numbers: their holes stand without the quotes of a string.
  return {
    text: text.replace(`"${holes.oldBalance}"`, holes.oldBalance)
      .replace(`"${holes.newBalance}"`, holes.newBalance),
    holes,
  };
}

/**
 * Places a reseller order. The server prices it from the catalogue and the reseller's markup and
 * discount rules; a client amount that differs is refused, never charged. Two statements: one
 * reads the game together with what the Idempotency-Key holds (a repeat is answered there, before
 * any check or supplier call); one (placeOrderStatement) debits the balance conditionally and
 * writes the order, its 'order_placed' history row, the job that calls the supplier and the key's
 * claim with the answer's text. Repeats send that text again, byte for byte. Both statements are
 * shared with the requests that arrived together (the reads of all, the placement with the same
 * reseller's), so a burst costs two statements and one wait on the reseller's row.
 */
export async function placeResellerOrder(
  ctx: OrderContext,
  input: PlaceOrderInput,
  idempotencyKey?: string,
): Promise<PlaceOrderResult> {
  const reseller = input.knownReseller ?? await findResellerPublicById(ctx.db, input.resellerId);
  if (!reseller || reseller.id !== input.resellerId) throw new NotFoundError("Reseller not found");
  const scope = `reseller:${reseller.id}`;
  const fingerprint = fingerprintOf(input);
  const { game, kept } = await findGameAndKeptAnswer(ctx.db, {
    game: orderedGame(input.game),
    key: idempotencyKey ? { scope, key: idempotencyKey } : undefined,
  });
  if (kept) return replayOf(kept, fingerprint);
  if (!game || (game.is_hidden && !input.seesHiddenGames)) {
    throw new NotFoundError("Game not found");
  }
  // Mobile Legends' stock, the game's own flag included, is part of its package decision, so the
  // order is refused exactly when Verify showed the out-of-stock banner.
  if (!decidesPackage(input) && game.is_out_of_stock) {
    throw new ConflictError(formatOutOfStockTitle(game.name));
  }
  if (game.requires_server_id && !input.serverid.trim()) {
    throw new ValidationError("serverid: Server ID is required for this game");
  }
  const pkg = decidesPackage(input) ? await decideMlbbOrderPackage(ctx, game, input) : undefined;
  const item = findItem(pkg ? pkg.gameItems : (game.game_items as GameItemDto[]), input.denom);
  const markupKey = pkg ? pkg.name : game.supplier_name;
  const priceCents = computeResellerPrice(item, {
    markupPercent: resellerMarkupFor(reseller, markupKey, pkg ? undefined : game),
    disableDiscounts: reseller.disable_discounts,
  });
  if (input.clientAmount !== undefined) assertClientPrice(input.clientAmount, priceCents);
  // Last of the checks, as the only one that asks the supplier.
  if (input.verifyAccount && !pkg) {
    const account = { ...input, characterName: input.verifyAccount.characterName };
    await onceInFlight(
      `${scope}\n${idempotencyKey ?? ""}\n${fingerprint}`,
      () => assertOrderableAccount(ctx.suppliers, game, account),
    );
  }
  const itemName = formatResellerItemName(item.nameReseller, game.game_currency);
  const id = newOrderId();
  const order: UnplacedOrder = {
    id,
    buyer_type: "reseller",
    status: "new",
    reseller_id: reseller.id,
    reseller_name: reseller.name,
    consumer_id: null,
    consumer_name: null,
    consumer_email: null,
    consumer_phone: null,
    game_id: game.id,
    game: game.name,
    package: pkg?.name ?? null,
    ...supplierKeysOf(game, item, pkg),
    item: itemName,
    user_id: input.userid.trim(),
    server_id: input.serverid.trim(),
    user_name: input.userName.trim(),
    amount_cents: priceCents,
    cost: String(item.cost),
    supplier: game.supplier,
    supplier_order_id: null,
    payment_provider: null,
    payment_reference: null,
    last_error: null,
    review_since: null,
    review_reason: null,
    route_item_key: null,
    supplier_game_id: null,
  };
  const outcome = await placeOrderStatement(ctx.db, {
    resellerId: reseller.id,
    cents: priceCents,
    order,
    history: {
      actor: reseller.name,
      snapshot: { id, item: itemName, amount: centsToDollars(priceCents) },
    },
    job: { kind: SUPPLIER_CREATE_JOB, payload: { orderId: id }, requestId: currentRequestId() },
    answer: answerTemplate(order),
    claim: idempotencyKey ? { scope, key: idempotencyKey, fingerprint, status: 201 } : undefined,
  });
  if (outcome.kind === "placed") {
    countOrderStep("placed", order);
    return { kind: "placed", body: JSON.parse(outcome.answer), text: outcome.answer };
  }
  // Nothing written: the balance is short, or a request with the same key placed it meanwhile.
  const first = idempotencyKey && await findIdempotencyKey(ctx.db, scope, idempotencyKey);
  if (first) {
    return replayOf(
      { fingerprint: first.fingerprint, status: first.response_status, text: first.response_body },
      fingerprint,
    );
  }
  throw new InsufficientBalanceError();
}
