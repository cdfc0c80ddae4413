import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { GameRow, OrderRow } from "../../db/schema.ts";
import { findGameRowByMoogoldId, findGameRowBySupplierName } from "../../db/repositories/games.ts";
import { findResellerPublicById } from "../../db/repositories/resellers.ts";
import { placeOrderStatement } from "../../db/repositories/order-placement.ts";
import { findIdempotencyKey } from "../../db/repositories/idempotency.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { GameItemDto } from "../../shared/game-types.ts";
import type { ResellerOrderDto } from "../../shared/order-types.ts";
import {
  computeResellerPrice,
  formatResellerItemName,
  resellerMarkupFor,
} from "../catalogue/pricing.ts";
import { centsToDollars, centsToDollarString, dollarsToCents } from "../money.ts";
import { decideMlbbPackage, formatOutOfStockTitle, packageToOrder } from "./verification.ts";
import { MLBB_SUPPLIER_NAME } from "../catalogue/games.ts";
import {
  ConflictError,
  InsufficientBalanceError,
  NotFoundError,
  ValidationError,
} from "../errors.ts";
import { presentResellerOrder } from "./present.ts";

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

/**
 * Places a reseller order. The server prices it from the catalogue and the reseller's markup and
 * discount rules; a client amount that differs is refused, never charged. One statement
 * (placeOrderStatement) debits the balance conditionally and writes the order, its 'order_placed'
 * history row, the job that calls the supplier after commit and, with an Idempotency-Key, the
 * key's claim with the answer kept for it: repeats return that first answer.
 */
export async function placeResellerOrder(
  ctx: OrderContext,
  input: PlaceOrderInput,
  idempotencyKey?: string,
): Promise<PlaceOrderResult> {
  const reseller = input.knownReseller ?? await findResellerPublicById(ctx.db, input.resellerId);
  if (!reseller || reseller.id !== input.resellerId) throw new NotFoundError("Reseller not found");
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
  const itemName = formatResellerItemName(item.nameReseller, game.game_currency);
  const scope = `reseller:${reseller.id}`;
  const fingerprint = fingerprintOf(input);

  const id = newOrderId();
  const order = {
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
    package_ed_name: pkg?.supplierPackageName ??
      (game.supplier === "elephant" ? game.supplier_name : null),
    item: itemName,
    // MooGold orders by variation id; EliteDias by denomination name.
    denom: game.supplier === "monkey" ? (item.id ?? item.nameSupplier) : item.nameSupplier,
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
  } satisfies Omit<
    OrderRow,
    "old_balance_cents" | "new_balance_cents" | "created_at" | "updated_at"
  >;
  // The answer as it will read once the statement fills in the balances and the time (zeros here).
  const answer = (oldCents: number, newCents: number, at: Date): PlaceOrderResult => ({
    status: 201,
    body: {
      order: presentResellerOrder({
        ...order,
        old_balance_cents: oldCents,
        new_balance_cents: newCents,
        created_at: at,
        updated_at: at,
      }),
    },
  });
  const template = answer(0, 0, new Date(0));
  const outcome = await placeOrderStatement(ctx.db, {
    resellerId: reseller.id,
    cents: priceCents,
    order,
    history: {
      actor: reseller.name,
      snapshot: { id, date: "", item: itemName, amount: centsToDollars(priceCents) },
    },
    job: { kind: SUPPLIER_CREATE_JOB, payload: { orderId: id } },
    claim: idempotencyKey ? { scope, key: idempotencyKey, fingerprint, ...template } : undefined,
  });
  if (outcome.kind === "short") throw new InsufficientBalanceError();
  if (outcome.kind === "placed") return answer(outcome.oldCents, outcome.newCents, outcome.at);
  const previous = await findIdempotencyKey(ctx.db, scope, idempotencyKey!);
  if (!previous || previous.fingerprint !== fingerprint) {
    throw new ConflictError("This Idempotency-Key was used for a different order");
  }
  return {
    status: previous.response_status ?? 201,
    body: previous.response_body,
  } as PlaceOrderResult;
}
