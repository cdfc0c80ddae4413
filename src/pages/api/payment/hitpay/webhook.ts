import type { APIRoute } from "astro";
import { receiveHitPayWebhook } from "../../../../domain/payments/consumer-payments.ts";
import { kickJobs } from "../../../../domain/jobs.ts";

/**
 * HitPay's webhook (external-apis.md §3.3/§3.4). The body is read as raw text and verified
 * before anything is parsed or stored; a bad signature is a 401 that changes nothing. A replay, a
 * signed event about something other than a payment request, and a signed payment of the business
 * that is none of our orders (a payment link, an invoice) answer 200 so HitPay stops retrying; a
 * refused event (wrong request, amount or currency) is kept as evidence and answered 409; an
 * order that does not know its payment request yet gets a 503 so HitPay sends the event again.
 */
export const POST: APIRoute = async ({ locals, request }) => {
  const result = await receiveHitPayWebhook(locals.app.db, {
    rawBody: await request.text(),
    headers: request.headers,
    salt: locals.app.config.hitpay.salt,
  });
  if (result.kind === "refused") return Response.json({ error: result.reason }, { status: 409 });
  if (result.kind === "retry") {
    return Response.json({ error: "Order not ready for this payment yet" }, {
      status: 503,
      headers: { "Retry-After": "5" },
    });
  }
  if (result.kind === "foreign") {
    return Response.json({ received: true, ignored: "not an order of this shop" });
  }
  kickJobs();
  return Response.json({ received: true, duplicate: result.kind === "duplicate" });
};
