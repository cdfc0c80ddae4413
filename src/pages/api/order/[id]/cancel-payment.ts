import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import { cancelConsumerPayment } from "../../../../domain/payments/consumer-payments.ts";
import { readJson } from "../../../../server/http.ts";
import { CancelPaymentBody } from "../../../../server/payment-inputs.ts";

// The result page after HitPay's Cancel: { reference } is the payment request id HitPay's redirect
// carried; the answer is { status }, the order's status afterwards.
export const POST: APIRoute = async ({ locals, params, request }) => {
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  const { reference } = await readJson(request, CancelPaymentBody);
  const status = await cancelConsumerPayment(locals.app.db, locals.app.hitpay(), {
    orderId: params.id,
    reference,
  });
  return Response.json({ status });
};
