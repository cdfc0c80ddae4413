import type { APIRoute } from "astro";
import { requireReseller } from "../../../../server/http.ts";
import { refreshOpenOrders } from "../../../../domain/orders/reseller-orders.ts";

export const POST: APIRoute = async ({ locals }) => {
  const reseller = requireReseller(locals);
  const result = await refreshOpenOrders(locals.app.db, locals.app.suppliers(), {
    resellerId: reseller._id,
  });
  return Response.json(result);
};
