import { v1Route } from "../../../../server/reseller-api.ts";
import { rollWebhookSecret } from "../../../../domain/resellers/webhooks.ts";

/** Replaces the signing secret; the answer carries the new one, shown this once. */
export const POST = v1Route(async ({ context: { locals }, reseller }) =>
  Response.json(
    await rollWebhookSecret(locals.app.db, locals.app.auth.box, {
      resellerId: reseller.id,
      name: reseller.name,
    }),
  )
);
