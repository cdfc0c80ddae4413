import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { GameRow, OrderRow } from "../../db/schema.ts";
import { findGameRowByMoogoldId, findGameRowBySupplierName } from "../../db/repositories/games.ts";
import { findResellerPublicById } from "../../db/repositories/resellers.ts";
import { insertPlacedOrder } from "../../db/repositories/order-placement.ts";
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
import { MLBB_SUPPLIER_NAME } from "../catalogue/games.ts";
import { debitForOrder } from "../ledger/ledger.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
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

/** What a reseller asks for; `clientAmount` is only compared, never charged. */
export interface PlaceOrderInput {
  kind: "mlbb" | "elephant" | "monkey";
  resellerId: string;
  /**
   * The reseller as the caller read it for this request (the signed-in session's), so it is not
   * read again; absent, it is read by `resellerId`. Its balance is never taken from here: the
   * debit is conditional on the row itself.
   */
  knownReseller?: OrderingReseller;
  /** Reseller may order hidden games (PRIVILEGED_RESELLERS). */
  seesHiddenGames: boolean;
  /** EliteDias game code (elephant). */
  supplierGameName?: string;
  /** MooGold product id (monkey). */
  productID?: string;
  /** The package the browser chose (mlbb); the server decides it again. */
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

export interface PlaceOrderResult {
  status: number;
  body: { order: ResellerOrderDto };
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

async function findGame(db: Db, input: PlaceOrderInput): Promise<GameRow> {
  const game = input.kind === "mlbb"
    ? await findGameRowBySupplierName(db, "elephant", MLBB_SUPPLIER_NAME)
    : input.kind === "elephant"
    ? await findGameRowBySupplierName(db, "elephant", input.supplierGameName ?? "")
    : await findGameRowByMoogoldId(db, input.productID ?? "");
  if (!game || (game.is_hidden && !input.seesHiddenGames)) {
    throw new NotFoundError("Game not found");
  }
  return game;
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
  return {
    package_ed_name: pkg?.supplierPackageName ??
      (game.supplier === "elephant" ? game.supplier_name : null),
    denom: game.supplier === "monkey" ? (item.id ?? item.nameSupplier) : item.nameSupplier,
  };
}

function findItem(items: GameItemDto[], denom: string): GameItemDto {
  const item = items.find((i) => i.nameSupplier === denom && !i.isHiddenReseller);
  if (!item) throw new NotFoundError("Item not found");
  return item;
}

function fingerprintOf(input: PlaceOrderInput): string {
  const { kind, supplierGameName, productID, package: pkg, denom, userid, serverid, clientAmount } =
    input;
  return createHash("sha256")
    .update(
      JSON.stringify([
        kind,
        supplierGameName,
        productID,
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
 * The answer first given under `idempotencyKey` for this input, if there is one; a different
 * input under the key is a conflict. Read before any supplier call, so a repeat is answered as it
 * was, whatever the supplier says now; the debit's claim still decides between concurrent firsts.
 */
async function previousAnswer(
  db: Db,
  scope: string,
  idempotencyKey: string,
  fingerprint: string,
): Promise<PlaceOrderResult | undefined> {
  const previous = await findIdempotencyKey(db, scope, idempotencyKey);
  if (!previous) return undefined;
  if (previous.fingerprint !== fingerprint) {
    throw new ConflictError("This Idempotency-Key was used for a different order");
  }
  return {
    status: previous.response_status ?? 201,
    body: previous.response_body,
  } as PlaceOrderResult;
}

/**
 * Places a reseller order. The server prices it from the catalogue and the reseller's markup and
 * discount rules; a client amount that differs is refused, never charged. One transaction of two
 * statements claims the key and debits the balance conditionally, then writes the order, its
 * 'order_placed' history row, the job that calls the supplier after commit and the answer kept
 * for the key. With an idempotency key, repeats return the first answer.
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
  const replay = idempotencyKey &&
    await previousAnswer(ctx.db, scope, idempotencyKey, fingerprint);
  if (replay) return replay;
  const game = await findGame(ctx.db, input);
  // Mobile Legends' stock, the game's own flag included, is part of its package decision, so the
  // order is refused exactly when Verify showed the out-of-stock banner.
  if (input.kind !== "mlbb" && game.is_out_of_stock) {
    throw new ConflictError(formatOutOfStockTitle(game.name));
  }
  if (game.requires_server_id && !input.serverid.trim()) {
    throw new ValidationError("serverid: Server ID is required for this game");
  }
  const pkg = input.kind === "mlbb" ? await decideMlbbOrderPackage(ctx, game, input) : undefined;
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

  let placed = false;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const claim = idempotencyKey ? { scope, key: idempotencyKey, fingerprint } : undefined;
    const debit = await debitForOrder(trx, reseller.id, priceCents, claim);
    if (debit.kind === "replay") {
      const previous = await previousAnswer(trx, scope, idempotencyKey!, fingerprint);
      if (!previous) throw new ConflictError("This Idempotency-Key was used for a different order");
      return previous;
    }
    const id = newOrderId();
    const order: OrderRow = {
      id,
      buyer_type: "reseller",
      status: "new",
      reseller_id: reseller.id,
      reseller_name: reseller.name,
      old_balance_cents: debit.oldCents,
      new_balance_cents: debit.newCents,
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
      // debit.at is the transaction's now(), which both timestamps would default to.
      created_at: debit.at,
      updated_at: debit.at,
    };
    const result: PlaceOrderResult = { status: 201, body: { order: presentResellerOrder(order) } };
    await insertPlacedOrder(
      trx,
      order,
      {
        resellerId: reseller.id,
        type: "order_placed",
        oldCents: debit.oldCents,
        newCents: debit.newCents,
        orderId: id,
        order: {
          id,
          date: debit.at.toISOString(),
          item: itemName,
          amount: centsToDollars(priceCents),
        },
        actor: reseller.name,
      },
      { kind: SUPPLIER_CREATE_JOB, payload: { orderId: id }, requestId: currentRequestId() },
      idempotencyKey ? { scope, key: idempotencyKey, ...result } : undefined,
    );
    placed = true;
    return result;
  });
  if (placed) countOrderStep("placed", { buyer_type: "reseller", supplier: game.supplier });
  return result;
}
