import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { listGamesForAdmin } from "../../../domain/catalogue/games.ts";

export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await listGamesForAdmin(locals.app.db));
};
