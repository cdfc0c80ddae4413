import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import {
  assertWithinRateLimit,
  CONSUMER_PAYMENT_PER_IP,
} from "../../../../domain/auth/rate-limit.ts";
import { startConsumerPayment } from "../../../../domain/payments/consumer-checkout.ts";
import { readJson } from "../../../../server/http.ts";
import { consumerCheckoutOf } from "../../../../server/consumer-checkout.ts";
import { ConsumerPaymentBody, PaymentProvider } from "../../../../server/payment-inputs.ts";

// Spec §7: POST /payment/{payment provider}/mlbb -> { orderID, paymentUrl }; every other game a
// consumer can buy at /payment/{payment provider}/{its page slug}. Anyone may buy; the
// per-address limit keeps a script from filling the orders table and HitPay with requests.
export const POST: APIRoute = async ({ locals, params, request }) => {
  const provider = PaymentProvider.safeParse(params.provider);
  if (!provider.success) throw new NotFoundError("Unknown payment provider");
  await assertWithinRateLimit(locals.app.db, CONSUMER_PAYMENT_PER_IP, locals.ip);
  const body = await readJson(request, ConsumerPaymentBody);
  const { consumer } = body;
  const started = await startConsumerPayment(
    consumerCheckoutOf(locals),
    {
      provider: provider.data,
      game: params.game ?? "",
      consumer: {
        name: `${consumer.firstName} ${consumer.lastName}`.trim(),
        email: consumer.email.toLowerCase(),
        phone: consumer.phone,
      },
      account: {
        userid: body.userid,
        serverid: body.serverid,
        characterName: body.characterName,
      },
      denom: body.denom,
      package: body.package,
      clientAmount: body.amount,
    },
  );
  return Response.json(started, { status: 201 });
};
