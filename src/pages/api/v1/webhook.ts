import { readJson } from "../../../server/http.ts";
import { headOf, v1Route } from "../../../server/reseller-api.ts";
import { V1WebhookInput } from "../../../server/reseller-api-inputs.ts";
import { getWebhookSettings, setWebhookUrl } from "../../../domain/resellers/webhooks.ts";

/** The key's reseller's callback URL (never the secret), as on My Account. */
export const GET = v1Route(async ({ context: { locals }, reseller }) =>
  Response.json(await getWebhookSettings(locals.app.db, reseller.id))
);

/** Sets the callback URL; the first one answers with the signing secret, shown this once. */
export const PUT = v1Route(async ({ context: { locals, request }, reseller }) => {
  const { url } = await readJson(request, V1WebhookInput);
  return Response.json(
    await setWebhookUrl(
      locals.app.db,
      locals.app.auth.box,
      { resellerId: reseller.id, name: reseller.name },
      url,
      locals.app.config.mode,
    ),
  );
});

export const HEAD = headOf(GET);
