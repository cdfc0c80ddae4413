import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../../server/http.ts";
import { ConfirmPaymentInput } from "../../../../server/order-inputs.ts";
import { adminActor } from "../../../../domain/actor.ts";
import { NotFoundError } from "../../../../domain/errors.ts";
import { settleManualPaymentAsAdmin } from "../../../../domain/orders/admin-orders.ts";

/**
 * Admins confirm that a consumer's manual payment arrived (the order goes to its supplier) or,
 * with `cancel`, cancel the order; audited, like `cli orders confirm-payment`.
 */
export const POST: APIRoute = async ({ locals, params, request }) => {
  const admin = requireAdmin(locals);
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const { cancel } = await readJson(request, ConfirmPaymentInput);
  const order = await settleManualPaymentAsAdmin(locals.app.db, {
    orderId: params.id,
    cancel,
    actor: adminActor(admin),
  });
  return Response.json({ order });
};
