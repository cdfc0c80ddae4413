import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../../server/http.ts";
import { ReviewDecisionInput } from "../../../../server/order-inputs.ts";
import { adminActor } from "../../../../domain/actor.ts";
import { NotFoundError } from "../../../../domain/errors.ts";
import { presentAdminOrders } from "../../../../domain/orders/admin-orders.ts";
import { resolveReview } from "../../../../domain/orders/review-queue.ts";

/**
 * Admins resolve an order in Needs review: mark it delivered with the supplier's order id, refund
 * it, or send it again; audited, like `cli orders review resolve`.
 */
export const POST: APIRoute = async ({ locals, params, request }) => {
  const admin = requireAdmin(locals);
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const { action, supplierOrderId } = await readJson(request, ReviewDecisionInput);
  const order = await resolveReview(locals.app.db, {
    orderId: params.id,
    action,
    supplierOrderId,
    actor: adminActor(admin),
  });
  const [presented] = await presentAdminOrders(locals.app.db, [order]);
  return Response.json({ order: presented });
};
