// An item's further routes (migration 0024): the suppliers an order of it goes to, in priority
// order, when the one before definitively refused it.
import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, ItemRouteRow } from "../schema.ts";

type Handle = Db | Transaction<Database>;

/** One route as it is saved: its place is its position in the list. */
export interface NewItemRoute {
  supplier: string;
  supplierGame: string;
  supplierItem: string;
  cost: string;
}

const ROUTE_COLUMNS = [
  "game_id",
  "item_key",
  "priority",
  "supplier",
  "supplier_game",
  "supplier_item",
  "cost",
  "updated_at",
] as const;

/** A game's stored routes, by item and priority; one item's when `itemKey` is given. */
export async function listItemRoutes(
  db: Handle,
  gameId: string,
  itemKey?: string,
): Promise<ItemRouteRow[]> {
  let q = db.selectFrom("item_routes").select(ROUTE_COLUMNS).where("game_id", "=", gameId);
  if (itemKey !== undefined) q = q.where("item_key", "=", itemKey);
  return await q.orderBy("item_key").orderBy("priority").execute();
}

/** Replaces an item's routes with `routes`, priorities 1, 2, … in the order given. */
export async function replaceItemRoutes(
  trx: Transaction<Database>,
  gameId: string,
  itemKey: string,
  routes: readonly NewItemRoute[],
): Promise<void> {
  await trx.deleteFrom("item_routes").where("game_id", "=", gameId)
    .where("item_key", "=", itemKey).execute();
  if (!routes.length) return;
  await trx.insertInto("item_routes").values(routes.map((route, i) => ({
    game_id: gameId,
    item_key: itemKey,
    priority: i + 1,
    supplier: route.supplier,
    supplier_game: route.supplierGame,
    supplier_item: route.supplierItem,
    cost: route.cost,
  }))).execute();
}

/** Sets one route's cost (a price sync read a new one from its supplier). */
export async function updateItemRouteCost(
  db: Handle,
  route: { gameId: string; itemKey: string; supplier: string; cost: string },
): Promise<void> {
  await db.updateTable("item_routes")
    .set({ cost: route.cost, updated_at: new Date() })
    .where("game_id", "=", route.gameId)
    .where("item_key", "=", route.itemKey)
    .where("supplier", "=", route.supplier)
    .execute();
}
