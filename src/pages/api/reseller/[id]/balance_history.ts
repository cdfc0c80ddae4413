import type { APIRoute } from "astro";
import { requireOwnResellerId } from "../../../../server/http.ts";
import { listOwnBalanceHistory } from "../../../../domain/orders/reseller-orders.ts";

export const GET: APIRoute = async ({ locals, params }) => {
  const resellerId = requireOwnResellerId(locals, params.id);
  return Response.json(await listOwnBalanceHistory(locals.app.db, resellerId));
};
