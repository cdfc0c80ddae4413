// Which supplier an order goes to next when the one it was at definitively refused it: its
// item's routes (src/domain/catalogue/item-routes.ts) in priority order, past the suppliers it
// was already sent to or passed over at, and past a supplier whose last balance reading is known
// to be short of the route's cost. Decided on suppliers' keys and profiles, never their names.

import type { Db } from "../../db/client.ts";
import type { OrderRow } from "../../db/schema.ts";
import { listItemRoutes } from "../../db/repositories/item-routes.ts";
import { listAttemptedSuppliers } from "../../db/repositories/supplier-attempts.ts";
import { findLastBalanceReading } from "../../db/repositories/operations.ts";
import { supplierProfile } from "../../integrations/supplier-registry.ts";
import { centsToDecimalString, decimalToNearestCents } from "../money.ts";
import type { OrderRoute } from "./lifecycle.ts";

/** One further route of an item, as stored. */
export interface RouteCandidate {
  supplier: string;
  /** The supplier's game: its code or its product id (its profile's `gameKey`). */
  supplierGame: string;
  /** The supplier's key of the item. */
  supplierItem: string;
  /** Its cost as the supplier stated it (exact decimal text, in its balance's currency). */
  cost: string;
}

/** What the choice found: the route to take (none: the order fails) and those passed over. */
export interface RouteChoice {
  next?: RouteCandidate;
  skipped: { route: RouteCandidate; reason: string }[];
}

/** What is known when choosing: suppliers already tried, and balances known in cents. */
export interface RouteFacts {
  /** Suppliers the order was sent to or passed over at (its current one included). */
  tried: ReadonlySet<string>;
  /** A supplier's last balance reading in cents, where it is in the route's currency. */
  balanceCents: ReadonlyMap<string, number>;
}

/**
 * The first of `routes` (in priority order) the order has not been at whose supplier is
 * registered and not known to be short of its cost; the routes passed over on the way, each with
 * why. Suppliers already tried are passed over silently: their refusal is already recorded.
 */
export function chooseNextRoute(
  routes: readonly RouteCandidate[],
  facts: RouteFacts,
): RouteChoice {
  const skipped: RouteChoice["skipped"] = [];
  for (const route of routes) {
    if (facts.tried.has(route.supplier)) continue;
    const profile = supplierProfile(route.supplier);
    if (!profile) {
      skipped.push({ route, reason: `${route.supplier} is not a registered supplier` });
      continue;
    }
    const balance = facts.balanceCents.get(route.supplier);
    const cost = decimalToNearestCents(route.cost, "route cost");
    if (balance !== undefined && balance < cost) {
      skipped.push({
        route,
        reason: `skipped: ${profile.name}'s last balance reading (${
          centsToDecimalString(balance)
        } ${profile.balanceCurrency}) is short of the cost ${route.cost}`,
      });
      continue;
    }
    return { next: route, skipped };
  }
  return { skipped };
}

/** The item's key an order's routes are stored under, or undefined for an order without any. */
function itemKeyOf(order: OrderRow): string | undefined {
  // A package's items (Mobile Legends) are decided per package and have no routes.
  if (!order.game_id || order.package !== null) return undefined;
  return order.route_item_key ?? order.denom;
}

/**
 * The order's next route after its current supplier definitively refused it, read from its item's
 * routes, its attempts and the suppliers' last balance readings; with `itemKey` to record on the
 * order when it moves.
 */
export async function planReroute(
  db: Db,
  order: OrderRow,
): Promise<RouteChoice & { itemKey?: string }> {
  const itemKey = itemKeyOf(order);
  if (itemKey === undefined) return { skipped: [] };
  const rows = await listItemRoutes(db, order.game_id!, itemKey);
  if (!rows.length) return { skipped: [] };
  const tried = new Set([order.supplier, ...await listAttemptedSuppliers(db, order.id)]);
  const balanceCents = new Map<string, number>();
  for (const row of rows) {
    const profile = supplierProfile(row.supplier);
    if (!profile || tried.has(row.supplier)) continue;
    const reading = await findLastBalanceReading(db, profile.vendor);
    // A reading in another currency than the supplier states costs in says nothing about them.
    if (reading && reading.currency === profile.balanceCurrency) {
      balanceCents.set(row.supplier, reading.balance_cents);
    }
  }
  const routes = rows.map((row) => ({
    supplier: row.supplier,
    supplierGame: row.supplier_game,
    supplierItem: row.supplier_item,
    cost: String(row.cost),
  }));
  return { ...chooseNextRoute(routes, { tried, balanceCents }), itemKey };
}

/** The order's columns for `route`: its game goes where its supplier's `gameKey` says. */
export function orderRouteOf(route: RouteCandidate, itemKey: string): OrderRoute {
  const byCode = supplierProfile(route.supplier)?.gameKey === "supplierName";
  return {
    supplier: route.supplier,
    denom: route.supplierItem,
    gameCode: byCode ? route.supplierGame : null,
    productId: byCode ? null : route.supplierGame,
    cost: route.cost,
    itemKey,
  };
}
