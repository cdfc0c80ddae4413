import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import { pollConsumerOrderStatus } from "../../../../domain/payments/consumer-payments.ts";

// Spec §7: GET /order/{id}/status -> { status }, polled every 3 s by the result page. Only the
// status leaves (and, while a manual order awaits its transfer, the shop's own bank account): no
// names, emails or amounts, whoever holds the number.
export const GET: APIRoute = async ({ locals, params }) => {
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const answer = await pollConsumerOrderStatus(locals.app.db, locals.app.hitpay(), params.id);
  return Response.json(answer);
};
