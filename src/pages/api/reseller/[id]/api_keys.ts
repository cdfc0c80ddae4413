import type { APIRoute } from "astro";
import { requireAdmin, uuidParam } from "../../../../server/http.ts";
import { listResellerApiKeys } from "../../../../domain/resellers/api-keys.ts";

/** Admins list a reseller's API keys on its edit page. */
export const GET: APIRoute = async ({ locals, params }) => {
  requireAdmin(locals);
  const id = uuidParam(params.id, "Reseller");
  return Response.json({ keys: await listResellerApiKeys(locals.app.db, id) });
};
