import type { APIRoute } from "astro";
import { requireReseller } from "../../../../server/http.ts";
import { listDeliveries } from "../../../../domain/resellers/webhooks.ts";

/** The signed-in reseller's latest webhook delivery attempts, newest first. */
export const GET: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  return Response.json({ deliveries: await listDeliveries(locals.app.db, reseller._id) });
};
