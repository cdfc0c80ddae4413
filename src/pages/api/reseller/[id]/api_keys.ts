import type { APIRoute } from "astro";
import { requireAdmin, uuidParam } from "../../../../server/http.ts";
import {
  listResellerApiKeys,
  revokeAllResellerApiKeys,
} from "../../../../domain/resellers/api-keys.ts";
import { adminActor } from "../../../../domain/actor.ts";

/** Admins list a reseller's API keys on its edit page. */
export const GET: APIRoute = async ({ locals, params }) => {
  requireAdmin(locals);
  const id = uuidParam(params.id, "Reseller");
  return Response.json({ keys: await listResellerApiKeys(locals.app.db, id) });
};

/** Admins revoke every live key of a reseller at once ("Revoke all keys"), each audited. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Reseller");
  return Response.json({
    revoked: await revokeAllResellerApiKeys(locals.app.db, id, adminActor(admin)),
  });
};
