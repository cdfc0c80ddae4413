import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "../../../../../server/http.ts";
import { ItemRoutesInput } from "../../../../../server/supplier-inputs.ts";
import { listGameRoutes, saveItemRoutes } from "../../../../../domain/catalogue/item-routes.ts";

/** Every item of the game with its routes, its own supplier first. */
export const GET: APIRoute = async ({ locals, params }) => {
  requireAdmin(locals);
  return Response.json(await listGameRoutes(locals.app.db, uuidParam(params.id, "Game")));
};

/** Replaces one item's further routes; each is checked against its supplier's offer. */
export const PUT: APIRoute = async ({ locals, params, request }) => {
  const admin = requireAdmin(locals);
  const gameId = uuidParam(params.id, "Game");
  const { itemKey, routes } = await readJson(request, ItemRoutesInput);
  return Response.json(
    await saveItemRoutes(locals.app.db, locals.app.suppliers(), { gameId, itemKey, routes }, admin),
  );
};
