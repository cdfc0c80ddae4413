import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { listMoogoldGames } from "../../../domain/catalogue/supplier-catalogue.ts";

export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await listMoogoldGames(locals.app.suppliers()));
};
