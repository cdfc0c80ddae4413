// The reseller API (/api/v1): the portal's own domain functions behind another door.
// Catalogue and prices come from reseller-catalogue.ts, verification from verification.ts, orders
// from orders/place.ts (the same conditional debit, pricing and supplier job), money from ledger.
import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import { findGameRowById } from "../../db/repositories/games.ts";
import { findResellerOrder, listResellerOrdersPage } from "../../db/repositories/orders.ts";
import { listBalanceEntriesPage } from "../../db/repositories/ledger.ts";
import { findResellerPublicById } from "../../db/repositories/resellers.ts";
import type {
  BalanceEntryDto,
  ResellerOrderDto,
  ResellerOrderStatus,
} from "../../shared/order-types.ts";
import { listGamesForReseller } from "../catalogue/games.ts";
import { isMobileLegends } from "../catalogue/consumer-catalogue.ts";
import { resellerCatalogue, type ResellerGameCatalogue } from "../catalogue/reseller-catalogue.ts";
import { verifyGameAccount, verifyMlbbForOrder } from "../orders/verification.ts";
import { type OrderContext, orderedGameKeyOf, placeResellerOrder } from "../orders/place.ts";
import { presentBalanceEntry, presentResellerOrder } from "../orders/present.ts";
import { centsToDollars } from "../money.ts";
import { NotFoundError, UpstreamError, ValidationError } from "../errors.ts";
import type { MlbbVerification, PackageChoice } from "../orders/verification.ts";
import type { ElitediasVerification } from "../../integrations/elitedias/port.ts";
import type { MoogoldValidateAnswer } from "../../integrations/moogold/port.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";

/** Who is calling: the key's reseller, and whether it may order hidden games. */
export interface ApiCaller {
  resellerId: string;
  seesHiddenGames: boolean;
}

/** One game as the API lists it, with its packages and items priced for the caller. */
export interface ApiGame {
  id: string;
  name: string;
  requiresServerID: boolean;
  requiresCharacterName: boolean;
  servers: Record<string, string>;
  isOutOfStock: boolean;
  packages: { name: string; isOutOfStock: boolean; items: ResellerGameCatalogue["gameItems"] }[];
  items: ResellerGameCatalogue["gameItems"];
}

/** GET /api/v1/games: the portal's games grid, each game priced as the portal's game page. */
export async function listApiGames(db: Db, caller: ApiCaller): Promise<ApiGame[]> {
  const games = await listGamesForReseller(db, caller.seesHiddenGames);
  const priced: ApiGame[] = [];
  for (const g of games) {
    const c = await resellerCatalogue(db, caller.resellerId, g._id, caller.seesHiddenGames);
    priced.push({
      id: g._id,
      name: g.name,
      requiresServerID: g.requiresServerID,
      requiresCharacterName: g.requiresCharacterName,
      servers: g.servers,
      isOutOfStock: g.isOutOfStock,
      packages: c.packages.map((p) => ({
        name: p.name,
        isOutOfStock: p.isOutOfStock,
        items: p.gameItems,
      })),
      items: c.gameItems,
    });
  }
  return priced;
}

async function findOrderableGame(db: Db, caller: ApiCaller, gameId: string): Promise<GameRow> {
  const game = await findGameRowById(db, gameId);
  if (!game || (game.is_hidden && !caller.seesHiddenGames)) {
    throw new NotFoundError("Game not found");
  }
  return game;
}

/**
 * The answer of POST /api/v1/verify: the portal's answer for the game's supplier, named by a
 * `shape` field so a client (and a generated type) can tell the three apart without guessing
 * from which fields are present.
 */
export interface ApiVerification {
  gameId: string;
  result:
    | (MlbbVerification & { shape: "mlbb"; choice: PackageChoice; userName: string })
    | (ElitediasVerification & { shape: "elitedias" })
    | (MoogoldValidateAnswer & { shape: "moogold" });
}

/** The shapes of a supplier's own verify answer the API document names. */
const API_VERIFY_SHAPES = ["elitedias", "moogold"] as const;

function isApiVerifyShape(vendor: string | undefined): vendor is typeof API_VERIFY_SHAPES[number] {
  return (API_VERIFY_SHAPES as readonly (string | undefined)[]).includes(vendor);
}

/** POST /api/v1/verify: the portal's check for the game's supplier, in the portal's answer. */
export async function verifyApiAccount(
  ctx: OrderContext,
  caller: ApiCaller,
  input: { gameId: string; userid: string; serverid: string; characterName: string },
): Promise<ApiVerification> {
  const game = await findOrderableGame(ctx.db, caller, input.gameId);
  const { userid, serverid } = input;
  if (isMobileLegends(game)) {
    const mlbb = await verifyMlbbForOrder(ctx.db, ctx.suppliers, userid, serverid);
    return { gameId: game.id, result: { shape: "mlbb", ...mlbb } };
  }
  const presented = await verifyGameAccount(ctx.suppliers, game, {
    userid,
    serverid,
    characterName: input.characterName,
  });
  // Each supplier's port presents its own answer; the shape is named by the supplier's vendor
  // name, which the document lists (one named schema per supplier the API serves).
  const vendor = supplierProfile(game.supplier)?.vendor;
  if (isApiVerifyShape(vendor)) {
    return {
      gameId: game.id,
      result: { shape: vendor, ...(presented as object) } as ApiVerification["result"],
    };
  }
  throw new UpstreamError("Failed to verify ID: no supplier sells this game");
}

/**
 * POST /api/v1/orders: the portal's placeResellerOrder, the game named by id, verifying the account
 * first for every game (a program may order without calling verify; the portal's flow cannot).
 * The Idempotency-Key is required here (a bot retries); it shares the portal's scope, so a key is
 * one order either way.
 */
export async function placeApiOrder(
  ctx: OrderContext,
  caller: ApiCaller,
  input: {
    gameId: string;
    item: string;
    userid: string;
    serverid: string;
    characterName: string;
    userName: string;
    package?: string;
    expectedPrice?: number;
  },
  idempotencyKey: string | undefined,
) {
  if (!idempotencyKey) throw new ValidationError("The Idempotency-Key header is required");
  const game = await findOrderableGame(ctx.db, caller, input.gameId);
  return await placeResellerOrder(ctx, {
    game: orderedGameKeyOf(game),
    resellerId: caller.resellerId,
    seesHiddenGames: caller.seesHiddenGames,
    package: input.package,
    denom: input.item,
    userid: input.userid,
    serverid: input.serverid,
    userName: input.userName,
    clientAmount: input.expectedPrice,
    verifyAccount: { characterName: input.characterName },
  }, idempotencyKey);
}

/** GET /api/v1/orders/{id}: one of the caller's orders; someone else's is not found. */
export async function getApiOrder(db: Db, caller: ApiCaller, id: string) {
  const order = id.length <= 64 ? await findResellerOrder(db, caller.resellerId, id) : undefined;
  if (!order) throw new NotFoundError("Order not found");
  return presentResellerOrder(order);
}

function encodeCursor(parts: (string | number)[]): string {
  return btoa(JSON.stringify(parts)).replaceAll("=", "");
}

function decodeCursor(cursor: string): unknown[] {
  try {
    const parts = JSON.parse(atob(cursor));
    if (Array.isArray(parts)) return parts;
  } catch {
    // falls through to the error below
  }
  throw new ValidationError("cursor: not a cursor this API returned");
}

const DAY_MS = 86_400_000;

/** GET /api/v1/orders: newest first, after the cursor, by status and placing day (UTC). */
export async function listApiOrders(
  db: Db,
  caller: ApiCaller,
  query: {
    status?: ResellerOrderStatus;
    from?: string;
    to?: string;
    cursor?: string;
    limit: number;
  },
): Promise<{ orders: ResellerOrderDto[]; nextCursor: string | null }> {
  let afterId: string | undefined;
  if (query.cursor) {
    const [id] = decodeCursor(query.cursor);
    if (typeof id !== "string" || id.length > 64) {
      throw new ValidationError("cursor: not a cursor this API returned");
    }
    afterId = id;
  }
  const rows = await listResellerOrdersPage(db, caller.resellerId, {
    status: query.status,
    from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
    before: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    afterId,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    orders: page.map(presentResellerOrder),
    nextCursor: rows.length > query.limit && last ? encodeCursor([last.id]) : null,
  };
}

/** GET /api/v1/balance. */
export async function getApiBalance(db: Db, caller: ApiCaller): Promise<{ balance: number }> {
  const reseller = await findResellerPublicById(db, caller.resellerId);
  if (!reseller) throw new NotFoundError("Reseller not found");
  return { balance: centsToDollars(reseller.balance_cents) };
}

/** GET /api/v1/balance/history: newest first, a page at a time. */
export async function listApiBalanceHistory(
  db: Db,
  caller: ApiCaller,
  query: { cursor?: string; limit: number },
): Promise<{ entries: BalanceEntryDto[]; nextCursor: string | null }> {
  let beforeId: number | undefined;
  if (query.cursor) {
    const [id] = decodeCursor(query.cursor);
    if (typeof id !== "number" || !Number.isSafeInteger(id)) {
      throw new ValidationError("cursor: not a cursor this API returned");
    }
    beforeId = id;
  }
  const rows = await listBalanceEntriesPage(db, caller.resellerId, {
    beforeId,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map(presentBalanceEntry),
    nextCursor: rows.length > query.limit && last ? encodeCursor([Number(last.id)]) : null,
  };
}
