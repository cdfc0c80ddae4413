import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../../server/http.ts";
import { WebhookUrlInput } from "../../../server/webhook-inputs.ts";
import { getWebhookSettings, setWebhookUrl } from "../../../domain/resellers/webhooks.ts";

/** The signed-in reseller's callback URL (never the secret). */
export const GET: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  return Response.json(await getWebhookSettings(locals.app.db, reseller._id));
};

/** Sets the callback URL; the first one answers with the signing secret, shown this once. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const reseller = requireReseller(locals);
  const { url } = await readJson(request, WebhookUrlInput);
  const saved = await setWebhookUrl(
    locals.app.db,
    locals.app.auth.box,
    { resellerId: reseller._id, name: reseller.name },
    url,
    locals.app.config.mode,
  );
  return Response.json(saved);
};
