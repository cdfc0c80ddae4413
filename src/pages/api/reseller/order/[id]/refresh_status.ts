import type { APIRoute } from "astro";
import { requireAdmin, requireReseller } from "../../../../../server/http.ts";
import { refreshOwnOrder } from "../../../../../domain/orders/reseller-orders.ts";
import { refreshAnyOrder } from "../../../../../domain/orders/admin-orders.ts";
import { NotFoundError } from "../../../../../domain/errors.ts";

// The spec's body carries `denom`; the order already knows it, so the body is not read.
// A reseller refreshes its own orders; an admin's Orders screen calls the same path for any order.
export const POST: APIRoute = async ({ locals, params }) => {
  const admin = locals.session?.userType === "admin" ? requireAdmin(locals) : null;
  const reseller = admin ? null : requireReseller(locals);
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const order = reseller
    ? await refreshOwnOrder(locals.app.db, locals.app.suppliers(), reseller._id, params.id)
    : await refreshAnyOrder(locals.app.db, locals.app.suppliers(), params.id);
  return Response.json({ order });
};
