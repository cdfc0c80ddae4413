import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "../../../../../server/http.ts";
import { RouteMapInput } from "../../../../../server/supplier-inputs.ts";
import { mapSupplierGameAsRoutes } from "../../../../../domain/catalogue/item-routes.ts";

/** Adds a supplier's items of the same names to the game's items as their last routes. */
export const POST: APIRoute = async ({ locals, params, request }) => {
  const admin = requireAdmin(locals);
  const gameId = uuidParam(params.id, "Game");
  const input = await readJson(request, RouteMapInput);
  return Response.json(
    await mapSupplierGameAsRoutes(locals.app.db, locals.app.suppliers(), {
      gameId,
      supplier: input.supplier,
      supplierName: input.supplierName,
      supplierGameId: input.supplierGameID,
    }, admin),
  );
};
