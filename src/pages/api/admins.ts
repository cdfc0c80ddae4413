import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { AdminSearchQuery } from "../../server/admin-inputs.ts";
import { listAdminsMatching } from "../../domain/admin/admins.ts";

/** Spec §7 GET /admins; `?search=` matches name, email or rank (the Admins tab's search box). */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  const { search } = readQuery(url, AdminSearchQuery);
  return Response.json(await listAdminsMatching(locals.app.db, search));
};
