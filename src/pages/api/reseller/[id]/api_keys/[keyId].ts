import type { APIRoute } from "astro";
import { requireAdmin, uuidParam } from "../../../../../server/http.ts";
import { revokeResellerApiKey } from "../../../../../domain/resellers/api-keys.ts";
import { adminActor } from "../../../../../domain/actor.ts";

/** Admins revoke any reseller's API key, audited with their name. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  const key = await revokeResellerApiKey(
    locals.app.db,
    uuidParam(params.id, "Reseller"),
    uuidParam(params.keyId, "API key"),
    adminActor(admin),
  );
  return Response.json({ key });
};
