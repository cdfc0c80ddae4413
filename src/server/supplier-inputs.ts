import { z } from "zod";

/** Body of the EliteDias admin calls: the supplier's game code. */
export const EdGameInput = z.object({ game: z.string().trim().min(1).max(100) });

/** Body of the MooGold admin calls: the product id. */
export const MgProductInput = z.object({
  productID: z.union([
    z.string().trim().regex(/^\d+$/, "productID must be a number"),
    z.number().int().positive(),
  ]),
});

/** One further route of an item: a supplier, its game (code or product id) and its item key. */
const RouteInput = z.object({
  supplier: z.string().trim().min(1).max(50),
  game: z.string().trim().min(1).max(200),
  item: z.string().trim().min(1).max(300),
});

/** PUT /api/admin/games/{id}/routes: one item's further routes, in priority order. */
export const ItemRoutesInput = z.object({
  itemKey: z.string().min(1).max(300),
  routes: z.array(RouteInput).max(10),
});

/** GET /api/admin/route_offer: what a supplier sells for a game it names by code or product id. */
export const RouteOfferQuery = z.object({
  supplier: z.string().trim().min(1).max(50),
  game: z.string().trim().min(1).max(200),
});

/** POST /api/admin/games/{id}/route_map: a supplier's game to map onto the game's items. */
export const RouteMapInput = z.object({
  supplier: z.string().trim().min(1).max(50),
  supplierName: z.string().trim().max(200).default(""),
  supplierGameID: z.union([z.string().trim().max(50), z.number().int().positive()])
    .transform(String).default(""),
});
