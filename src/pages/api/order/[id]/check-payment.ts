import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import { checkConsumerPaymentNow } from "../../../../domain/payments/consumer-payment-check.ts";

// The result page's "I have paid": HitPay is asked now about the order's payment (at most once
// per order every 10 s, the status poll's checks included; 429 says when) -> { status } after.
export const POST: APIRoute = async ({ locals, params }) => {
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const answer = await checkConsumerPaymentNow(locals.app.db, locals.app.hitpay(), params.id);
  return Response.json(answer);
};
