import type { APIRoute } from "astro";
import { requireReseller } from "../../../server/http.ts";
import { listGamesForReseller } from "../../../domain/catalogue/games.ts";

export const GET: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  const privileged = locals.app.config.privilegedResellers.includes(reseller.email);
  return Response.json(await listGamesForReseller(locals.app.db, privileged));
};
