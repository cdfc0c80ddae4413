import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import {
  assertWithinRateLimit,
  CONSUMER_RETRY_PER_IP,
} from "../../../../domain/auth/rate-limit.ts";
import { startConsumerPaymentAgain } from "../../../../domain/payments/consumer-checkout.ts";
import { consumerCheckoutOf } from "../../../../server/consumer-checkout.ts";

// The result page's "Try again" on an order whose payment ended unpaid: the same purchase as a new
// order -> { orderID, paymentUrl }, as the checkout answers. It starts a payment, so it is limited
// per address, with a budget of its own (CONSUMER_RETRY_PER_IP).
export const POST: APIRoute = async ({ locals, params }) => {
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  await assertWithinRateLimit(locals.app.db, CONSUMER_RETRY_PER_IP, locals.ip);
  const started = await startConsumerPaymentAgain(consumerCheckoutOf(locals), params.id);
  return Response.json(started, { status: 201 });
};
