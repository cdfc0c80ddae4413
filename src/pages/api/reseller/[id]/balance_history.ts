import type { APIRoute } from "astro";
import { requireAdmin, requireOwnResellerId, uuidParam } from "../../../../server/http.ts";
import { listOwnBalanceHistory } from "../../../../domain/orders/reseller-orders.ts";

/** Newest first: a reseller reads its own history; admins read any reseller's (edit screen). */
export const GET: APIRoute = async ({ locals, params }) => {
  const resellerId = locals.session?.userType === "admin"
    ? (requireAdmin(locals), uuidParam(params.id, "Reseller"))
    : requireOwnResellerId(locals, params.id);
  return Response.json(await listOwnBalanceHistory(locals.app.db, resellerId));
};
