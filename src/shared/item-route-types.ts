// The JSON shapes of an item's routes (Admin → Edit game → Routes): which suppliers an order of
// the item goes to, in order, when the one before definitively refused it. Types only.

/** One route of an item: a supplier, its game and item keys, and its cost as it states it. */
export interface ItemRouteDto {
  /** The supplier's key ("monkey", "elephant"). */
  supplier: string;
  /** The supplier's name in operators' words. */
  supplierLabel: string;
  /** How that supplier knows the game: its code or its product id. */
  game: string;
  /** That supplier's key of the item. */
  item: string;
  /** Its cost in dollars, as the supplier stated it (supplier precision). */
  cost: number;
}

/** An item and its routes; the first is always the item's own supplier (not editable). */
export interface ItemRoutesDto {
  /** The item's key in its game (its own supplier's key). */
  itemKey: string;
  itemName: string;
  routes: ItemRouteDto[];
}

/** A supplier a route may name, and what its game key is ("code" or "product id"). */
export interface RouteSupplierDto {
  key: string;
  name: string;
  gameKeyLabel: string;
}

/** GET /api/admin/games/{id}/routes. */
export interface GameRoutesDto {
  gameId: string;
  /** Why the game has no routes (a game with packages, or no supplier); absent when it may. */
  unavailable?: string;
  suppliers: RouteSupplierDto[];
  items: ItemRoutesDto[];
}

/** One item of a supplier's offer for a game, as the route picker lists it. */
export interface RouteOfferItemDto {
  /** The supplier's key of the item (a route's `item`). */
  key: string;
  name: string;
  cost: number;
}
