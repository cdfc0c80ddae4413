import type { APIRoute } from "astro";
import { requireReseller } from "../../../../../server/http.ts";
import { refreshOwnOrder } from "../../../../../domain/orders/reseller-orders.ts";
import { NotFoundError } from "../../../../../domain/errors.ts";

// The spec's body carries `denom`; the order already knows it, so the body is not read.
export const POST: APIRoute = async ({ locals, params }) => {
  const reseller = requireReseller(locals);
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const order = await refreshOwnOrder(
    locals.app.db,
    locals.app.suppliers(),
    reseller._id,
    params.id,
  );
  return Response.json({ order });
};
