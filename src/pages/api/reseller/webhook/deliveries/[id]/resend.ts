import type { APIRoute } from "astro";
import { requireReseller, uuidParam } from "../../../../../../server/http.ts";
import { resendDelivery } from "../../../../../../domain/resellers/webhooks.ts";

/** Sends a delivery's event again (same event id); another reseller's delivery is 404. */
export const POST: APIRoute = async ({ locals, params }) => {
  const reseller = requireReseller(locals);
  const id = uuidParam(params.id, "Delivery");
  await resendDelivery(locals.app.db, reseller._id, id);
  return Response.json({ ok: true }, { status: 202 });
};
