import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../../server/http.ts";
import { ApiKeyCreateInput } from "../../../server/reseller-inputs.ts";
import { createApiKey, listResellerApiKeys } from "../../../domain/resellers/api-keys.ts";
import { resellerActor } from "../../../domain/actor.ts";

/** The signed-in reseller's API keys (My Account). */
export const GET: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  return Response.json({ keys: await listResellerApiKeys(locals.app.db, reseller._id) });
};

/** Issues a key; the answer carries its secret, the only time it is shown. */
export const POST: APIRoute = async ({ locals, request }) => {
  const reseller = requireReseller(locals);
  const { name } = await readJson(request, ApiKeyCreateInput);
  return Response.json(
    await createApiKey(locals.app.db, reseller._id, name, resellerActor(reseller)),
    { status: 201 },
  );
};
