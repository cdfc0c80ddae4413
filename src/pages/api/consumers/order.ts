import type { APIRoute } from "astro";
import {
  assertWithinRateLimit,
  CONSUMER_ORDER_LOOKUP_PER_IP,
} from "../../../domain/auth/rate-limit.ts";
import {
  findConsumerOrderByPaymentReference,
  findConsumerOrderForBuyer,
} from "../../../domain/payments/consumer-order-lookup.ts";
import { readJson, readQuery } from "../../../server/http.ts";
import {
  ConsumerOrderLookupBody,
  ConsumerOrderReferenceQuery,
} from "../../../server/payment-inputs.ts";

// POST /api/consumers/order {orderID, email} -> the order block of the result page. Anonymous:
// limited per client address, and nothing is revealed unless number and email both match.
export const POST: APIRoute = async ({ locals, request }) => {
  await assertWithinRateLimit(locals.app.db, CONSUMER_ORDER_LOOKUP_PER_IP, locals.ip);
  const { orderID, email } = await readJson(request, ConsumerOrderLookupBody);
  return Response.json(await findConsumerOrderForBuyer(locals.app.db, orderID, email));
};

// GET /api/consumers/order?reference={HitPay payment request id} -> the order without its player
// or buyer, for the result page opened where the order's details were not saved.
export const GET: APIRoute = async ({ locals, url }) => {
  await assertWithinRateLimit(locals.app.db, CONSUMER_ORDER_LOOKUP_PER_IP, locals.ip);
  const { reference } = readQuery(url, ConsumerOrderReferenceQuery);
  return Response.json(await findConsumerOrderByPaymentReference(locals.app.db, reference));
};
