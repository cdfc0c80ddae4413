import type { APIRoute } from "astro";
import { requireAdmin, requireReseller } from "../../../../server/http.ts";
import { refreshOpenOrders } from "../../../../domain/orders/reseller-orders.ts";
import { refreshAllOpenOrders } from "../../../../domain/orders/admin-orders.ts";

// A reseller refreshes its own open orders; an admin's Orders screen calls the same path for every
// open reseller order and every paid consumer order not yet delivered.
export const POST: APIRoute = async ({ locals }) => {
  const admin = locals.session?.userType === "admin" ? requireAdmin(locals) : null;
  const reseller = admin ? null : requireReseller(locals);
  const result = reseller
    ? await refreshOpenOrders(locals.app.db, locals.app.suppliers(), { resellerId: reseller._id })
    : await refreshAllOpenOrders(locals.app.db, locals.app.suppliers());
  return Response.json(result);
};
