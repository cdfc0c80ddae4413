import type { APIRoute } from "astro";
import { requireOwnResellerId } from "../../../../server/http.ts";
import { listOwnOrders } from "../../../../domain/orders/reseller-orders.ts";

export const GET: APIRoute = async ({ locals, params }) => {
  const resellerId = requireOwnResellerId(locals, params.id);
  return Response.json(await listOwnOrders(locals.app.db, resellerId));
};
