// An item's routes (migration 0024): the item's own supplier first, then, in priority order, other
// suppliers that sell the same item, to which an order goes when the one before definitively
// refused it (src/domain/orders/routing.ts). A route is saved only when its supplier really offers
// that item (its port's readOffer), with the cost the supplier states; never a price from the
// browser.

import type { Db } from "../../db/client.ts";
import type { GameRow } from "../../db/schema.ts";
import { findGameRowById, listGameRows } from "../../db/repositories/games.ts";
import {
  listItemRoutes,
  type NewItemRoute,
  replaceItemRoutes,
  updateItemRouteCost,
} from "../../db/repositories/item-routes.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { Suppliers } from "../../integrations/suppliers.ts";
import type { SupplierGame, SupplierProfile } from "../../integrations/supplier-port.ts";
import {
  requireSupplierPort,
  SUPPLIER_PROFILES,
  supplierProfile,
} from "../../integrations/supplier-registry.ts";
import type { GameItemDto } from "../../shared/game-types.ts";
import type {
  GameRoutesDto,
  ItemRouteDto,
  ItemRoutesDto,
  RouteOfferItemDto,
} from "../../shared/item-route-types.ts";
import type { PublicAdmin } from "../auth/users.ts";
import { NotFoundError, UpstreamError, ValidationError } from "../errors.ts";
import { parseDecimal } from "../money.ts";

/** A route as an admin asks for it: the supplier, its game and its item (the cost is read). */
export interface RouteRequest {
  supplier: string;
  game: string;
  item: string;
}

/** How `profile`'s supplier is asked about a game it names by `game` (a code or a product id). */
function supplierGame(profile: SupplierProfile, game: string): SupplierGame {
  return profile.gameKey === "supplierName"
    ? { supplierName: game, supplierGameId: null }
    : { supplierName: "", supplierGameId: game };
}

/** How the game's own supplier names it (a route's `game`). */
function ownGameKey(profile: SupplierProfile, game: GameRow): string {
  return profile.gameKey === "supplierName" ? game.supplier_name : game.supplier_game_id ?? "";
}

/** What a supplier's game key is called on the routes editor. */
function gameKeyLabel(profile: SupplierProfile): string {
  return profile.gameKey === "supplierName" ? "game code" : "product ID";
}

function priceNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new UpstreamError("Supplier sent a price that is not a number");
  return n;
}

/** Why a game has no routes, or undefined when its items may have them. */
function unavailableReason(game: GameRow): string | undefined {
  if (game.has_packages) return "A game with packages has no item routes.";
  if (!supplierProfile(game.supplier)) return "This game has no supplier to route from.";
  return undefined;
}

async function gameOrThrow(db: Db, gameId: string): Promise<GameRow> {
  const game = await findGameRowById(db, gameId);
  if (!game) throw new NotFoundError("Game not found");
  return game;
}

/** The game's items with their own supplier's key. */
function itemsOf(game: GameRow, own: SupplierProfile): { key: string; item: GameItemDto }[] {
  return (game.game_items as GameItemDto[]).map((item) => ({ key: own.itemKey(item), item }));
}

/** Every item of a game with its routes, its own supplier first. */
export async function listGameRoutes(db: Db, gameId: string): Promise<GameRoutesDto> {
  const game = await gameOrThrow(db, gameId);
  const suppliers = SUPPLIER_PROFILES.map((p) => ({
    key: p.key,
    name: p.name,
    gameKeyLabel: gameKeyLabel(p).replace(/^./, (c) => c.toUpperCase()),
  }));
  const unavailable = unavailableReason(game);
  if (unavailable) return { gameId, unavailable, suppliers, items: [] };
  const own = supplierProfile(game.supplier)!;
  const stored = await listItemRoutes(db, gameId);
  const items: ItemRoutesDto[] = itemsOf(game, own).map(({ key, item }) => ({
    itemKey: key,
    itemName: item.nameReseller,
    routes: [
      {
        supplier: own.key,
        supplierLabel: own.name,
        game: ownGameKey(own, game),
        item: key,
        cost: item.cost,
      },
      ...stored.filter((r) => r.item_key === key).map((r): ItemRouteDto => ({
        supplier: r.supplier,
        supplierLabel: supplierProfile(r.supplier)?.name ?? r.supplier,
        game: r.supplier_game,
        item: r.supplier_item,
        cost: priceNumber(String(r.cost)),
      })),
    ],
  }));
  return { gameId, suppliers, items };
}

/** `listGameRoutes` for the game an operator names: its id, its name or its supplier's key. */
export async function listGameRoutesByName(db: Db, name: string): Promise<GameRoutesDto> {
  const wanted = name.trim().toLowerCase();
  const game = (await listGameRows(db)).find((g) =>
    g.id === name || g.name.toLowerCase() === wanted || g.supplier_name.toLowerCase() === wanted
  );
  if (!game) throw new NotFoundError(`No game named ${name}`);
  return await listGameRoutes(db, game.id);
}

/** What `supplier` sells for `game` (its code or product id): each item's key, name, cost text. */
async function readOfferItems(
  suppliers: Suppliers,
  supplier: string,
  game: string,
): Promise<{ key: string; name: string; cost: string }[]> {
  const profile = supplierProfile(supplier);
  if (!profile) throw new ValidationError("supplier: no such supplier");
  const port = requireSupplierPort(suppliers, supplier);
  const offer = await port.readOffer(supplierGame(profile, game));
  // The port answers nothing both for a game the supplier does not know and for no answer at all;
  // the first is what an admin typed wrong, so it is theirs to check, never a 502.
  if (!offer) {
    throw new ValidationError(
      `${profile.name} lists nothing for ${game}: check the ${gameKeyLabel(profile)}`,
    );
  }
  return [...offer].map(([key, o]) => ({
    key: port.itemKey({ id: o.id, nameSupplier: key }),
    name: o.name,
    cost: o.cost,
  }));
}

/** What `supplier` sells for `game` (its code or product id), as the route picker lists it. */
export async function readRouteOffer(
  suppliers: Suppliers,
  supplier: string,
  game: string,
): Promise<RouteOfferItemDto[]> {
  return (await readOfferItems(suppliers, supplier, game))
    .map((o) => ({ key: o.key, name: o.name, cost: priceNumber(o.cost) }));
}

/**
 * Checks `routes` for an item of the game and reads each one's cost from its supplier: a
 * registered supplier other than the item's own, each supplier once, and an item the supplier
 * really offers for that game now.
 */
export async function validateItemRoutes(
  suppliers: Suppliers,
  game: GameRow,
  itemKey: string,
  routes: readonly RouteRequest[],
): Promise<NewItemRoute[]> {
  const unavailable = unavailableReason(game);
  if (unavailable) throw new ValidationError(unavailable);
  const own = supplierProfile(game.supplier)!;
  if (!itemsOf(game, own).some((i) => i.key === itemKey)) {
    throw new NotFoundError("Item not found");
  }
  const seen = new Set<string>();
  const checked: NewItemRoute[] = [];
  for (const route of routes) {
    const profile = supplierProfile(route.supplier);
    if (!profile) throw new ValidationError(`supplier: no such supplier ${route.supplier}`);
    if (route.supplier === own.key) {
      throw new ValidationError(`${own.name} is already this item's first route`);
    }
    if (seen.has(route.supplier)) {
      throw new ValidationError(`${profile.name} can be one route of an item only`);
    }
    seen.add(route.supplier);
    const item = (await readOfferItems(suppliers, route.supplier, route.game))
      .find((o) => o.key === route.item);
    if (!item) {
      throw new ValidationError(`${profile.name} does not sell ${route.item} for ${route.game}`);
    }
    checked.push({
      supplier: route.supplier,
      supplierGame: route.game,
      supplierItem: route.item,
      cost: item.cost,
    });
  }
  return checked;
}

/**
 * Admin → Edit game → Routes: replaces an item's further routes (in the order given, after its own
 * supplier), audited; the item with its routes as saved.
 */
export async function saveItemRoutes(
  db: Db,
  suppliers: Suppliers,
  input: { gameId: string; itemKey: string; routes: readonly RouteRequest[] },
  admin: Pick<PublicAdmin, "_id" | "name">,
): Promise<ItemRoutesDto> {
  const game = await gameOrThrow(db, input.gameId);
  const routes = await validateItemRoutes(suppliers, game, input.itemKey, input.routes);
  const before = (await listGameRoutes(db, input.gameId)).items
    .find((i) => i.itemKey === input.itemKey);
  await db.transaction().execute(async (trx) => {
    await replaceItemRoutes(trx, input.gameId, input.itemKey, routes);
    await insertAudit(trx, {
      actorType: "admin",
      actorId: admin._id,
      actorName: admin.name,
      action: "game.update_routes",
      targetType: "game",
      targetId: input.gameId,
      before,
      after: { itemKey: input.itemKey, routes },
    });
  });
  const after = (await listGameRoutes(db, input.gameId)).items
    .find((i) => i.itemKey === input.itemKey);
  if (!after) throw new NotFoundError("Item not found");
  return after;
}

/** What re-reading a game's route costs found: each changed cost, and routes no longer offered. */
export interface RouteCostSync {
  changes: { itemKey: string; supplier: string; from: number; to: number }[];
  /** "EliteDias: 60 Genesis Crystals" for each route whose supplier no longer lists its item. */
  missing: string[];
}

/** Whether two decimal texts are the same amount ("0.85" and "0.850"). */
function sameAmount(a: string, b: string): boolean {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  return x.units * 10n ** BigInt(scale - x.scale) === y.units * 10n ** BigInt(scale - y.scale);
}

/**
 * Re-reads each route's cost from its supplier and stores the ones that changed, so a rerouted
 * order records what that supplier charges now. A supplier that does not answer leaves its routes
 * as they were.
 */
export async function syncItemRouteCosts(
  db: Db,
  suppliers: Suppliers,
  gameId: string,
): Promise<RouteCostSync> {
  const sync: RouteCostSync = { changes: [], missing: [] };
  const routes = await listItemRoutes(db, gameId);
  const offers = new Map<string, Map<string, string> | null>();
  for (const route of routes) {
    const at = `${route.supplier}\n${route.supplier_game}`;
    if (!offers.has(at)) {
      const items = await readOfferItems(suppliers, route.supplier, route.supplier_game)
        .catch(() => null);
      offers.set(at, items && new Map(items.map((o) => [o.key, o.cost])));
    }
    const offer = offers.get(at);
    if (!offer) continue;
    const cost = offer.get(route.supplier_item);
    const name = supplierProfile(route.supplier)?.name ?? route.supplier;
    if (cost === undefined) {
      sync.missing.push(`${name}: ${route.supplier_item}`);
      continue;
    }
    const before = String(route.cost);
    if (sameAmount(before, cost)) continue;
    await updateItemRouteCost(db, {
      gameId,
      itemKey: route.item_key,
      supplier: route.supplier,
      cost,
    });
    sync.changes.push({
      itemKey: route.item_key,
      supplier: route.supplier,
      from: Number(before),
      to: Number(cost),
    });
  }
  return sync;
}

/** An item's name as two suppliers' lists are compared: case and spacing aside. */
function comparableName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/** What mapping a supplier's game onto a launched game did. */
export interface RouteMapping {
  /** Items that got the supplier as their last route. */
  mapped: number;
  /** The game's items the supplier sells nothing of that name for. */
  unmatched: string[];
}

/**
 * Launching a game another supplier already sells, offered instead: each item of the launched
 * game gets `supplier`'s item of the same name (for the game it names `supplierName` or
 * `supplierGameId`, whichever its port keys games by) as its last route, unless it already has a
 * route there. One transaction, audited.
 */
export async function mapSupplierGameAsRoutes(
  db: Db,
  suppliers: Suppliers,
  input: { gameId: string; supplier: string; supplierName: string; supplierGameId: string },
  admin: Pick<PublicAdmin, "_id" | "name">,
): Promise<RouteMapping> {
  const game = await gameOrThrow(db, input.gameId);
  const unavailable = unavailableReason(game);
  if (unavailable) throw new ValidationError(unavailable);
  const profile = supplierProfile(input.supplier);
  if (!profile) throw new ValidationError("supplier: no such supplier");
  if (profile.key === game.supplier) {
    throw new ValidationError(`${game.name} is already sold through ${profile.name}`);
  }
  const supplierGame = profile.gameKey === "supplierName"
    ? input.supplierName
    : input.supplierGameId;
  const offer = await readOfferItems(suppliers, profile.key, supplierGame);
  const byName = new Map(offer.map((o) => [comparableName(o.name), o]));
  const own = supplierProfile(game.supplier)!;
  const stored = await listItemRoutes(db, game.id);
  const mapping: RouteMapping = { mapped: 0, unmatched: [] };
  const changes: { itemKey: string; routes: NewItemRoute[] }[] = [];
  for (const { key, item } of itemsOf(game, own)) {
    const match = byName.get(comparableName(item.nameReseller)) ??
      byName.get(comparableName(item.nameConsumer.header));
    if (!match) {
      mapping.unmatched.push(item.nameReseller);
      continue;
    }
    const routes = stored.filter((r) => r.item_key === key).map((r) => ({
      supplier: r.supplier,
      supplierGame: r.supplier_game,
      supplierItem: r.supplier_item,
      cost: String(r.cost),
    }));
    if (routes.some((r) => r.supplier === profile.key)) continue;
    routes.push({
      supplier: profile.key,
      supplierGame,
      supplierItem: match.key,
      cost: match.cost,
    });
    changes.push({ itemKey: key, routes });
  }
  mapping.mapped = changes.length;
  if (!changes.length) return mapping;
  await db.transaction().execute(async (trx) => {
    for (const change of changes) {
      await replaceItemRoutes(trx, game.id, change.itemKey, change.routes);
    }
    await insertAudit(trx, {
      actorType: "admin",
      actorId: admin._id,
      actorName: admin.name,
      action: "game.update_routes",
      targetType: "game",
      targetId: game.id,
      after: { mappedFrom: { supplier: profile.key, game: supplierGame }, items: changes },
    });
  });
  return mapping;
}
