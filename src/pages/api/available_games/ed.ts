import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { listElitediasGames } from "../../../domain/catalogue/supplier-catalogue.ts";

export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await listElitediasGames(locals.app.suppliers()));
};
