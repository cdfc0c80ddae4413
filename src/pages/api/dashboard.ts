import type { APIRoute } from "astro";
import { requireAdmin } from "../../server/http.ts";
import { readDashboard } from "../../domain/admin/dashboard.ts";

/** The admin dashboard's figures and charts (spec §2 Dashboard), summed in SQL as of now. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await readDashboard(locals.app.db));
};
