import type { APIRoute } from "astro";
import { requireReseller } from "../../../../server/http.ts";
import { rollWebhookSecret } from "../../../../domain/resellers/webhooks.ts";

/** Replaces the signing secret; the answer carries the new one, shown this once. */
export const POST: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  const saved = await rollWebhookSecret(locals.app.db, locals.app.auth.box, {
    resellerId: reseller._id,
    name: reseller.name,
  });
  return Response.json(saved);
};
