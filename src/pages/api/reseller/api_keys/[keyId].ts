import type { APIRoute } from "astro";
import { requireReseller, uuidParam } from "../../../../server/http.ts";
import { revokeResellerApiKey } from "../../../../domain/resellers/api-keys.ts";
import { resellerActor } from "../../../../domain/actor.ts";

/** The reseller revokes one of its own keys; another reseller's key is not found. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const reseller = requireReseller(locals);
  const key = await revokeResellerApiKey(
    locals.app.db,
    reseller._id,
    uuidParam(params.keyId, "API key"),
    resellerActor(reseller),
  );
  return Response.json({ key });
};
