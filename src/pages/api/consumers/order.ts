import type { APIRoute } from "astro";
import {
  assertWithinRateLimit,
  CONSUMER_ORDER_LOOKUP_PER_IP,
} from "../../../domain/auth/rate-limit.ts";
import { findConsumerOrderForBuyer } from "../../../domain/payments/consumer-order-lookup.ts";
import { readJson } from "../../../server/http.ts";
import { ConsumerOrderLookupBody } from "../../../server/payment-inputs.ts";

// POST /api/consumers/order {orderID, email} -> the order block of the result page. Anonymous:
// limited per client address, and nothing is revealed unless number and email both match.
export const POST: APIRoute = async ({ locals, request }) => {
  await assertWithinRateLimit(locals.app.db, CONSUMER_ORDER_LOOKUP_PER_IP, locals.ip);
  const { orderID, email } = await readJson(request, ConsumerOrderLookupBody);
  return Response.json(await findConsumerOrderForBuyer(locals.app.db, orderID, email));
};
