import type { APIRoute } from "astro";
import { requireAdmin } from "../../server/http.ts";
import { listRestrictedUsers } from "../../domain/orders/restricted-users.ts";

/** Spec §7 GET /restricted_mlbb_users: the whole list, newest first. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await listRestrictedUsers(locals.app.db));
};
