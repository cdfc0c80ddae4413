import type { APIRoute } from "astro";
import { requireReseller, uuidParam } from "../../../../server/http.ts";
import { resellerCatalogue } from "../../../../domain/catalogue/reseller-catalogue.ts";

export const GET: APIRoute = async ({ locals, params }) => {
  const reseller = requireReseller(locals);
  const gameId = uuidParam(params.gameId, "Game");
  const privileged = locals.app.config.privilegedResellers.includes(reseller.email);
  return Response.json(await resellerCatalogue(locals.app.db, reseller._id, gameId, privileged));
};
