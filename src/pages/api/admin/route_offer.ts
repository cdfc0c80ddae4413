import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../../server/http.ts";
import { RouteOfferQuery } from "../../../server/supplier-inputs.ts";
import { readRouteOffer } from "../../../domain/catalogue/item-routes.ts";

/** What a supplier sells for a game, for the routes editor's item picker. */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  const { supplier, game } = readQuery(url, RouteOfferQuery);
  return Response.json(await readRouteOffer(locals.app.suppliers(), supplier, game));
};
