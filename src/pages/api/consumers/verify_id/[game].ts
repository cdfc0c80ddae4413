import type { APIRoute } from "astro";
import {
  assertWithinRateLimit,
  CONSUMER_VERIFY_PER_IP,
} from "../../../../domain/auth/rate-limit.ts";
import { verifyConsumerAccount } from "../../../../domain/payments/consumer-checkout.ts";
import { readJson } from "../../../../server/http.ts";
import { ConsumerVerifyBody } from "../../../../server/payment-inputs.ts";

// POST /consumers/verify_id/{page slug} {userid, serverid, characterName} -> the account's
// name and the server's decision, for every game a consumer can buy (the spec's
// /consumers/verify_id/mlbb keeps its own answer). Anonymous, so limited per client address: each
// call costs a supplier check.
export const POST: APIRoute = async ({ locals, params, request }) => {
  await assertWithinRateLimit(locals.app.db, CONSUMER_VERIFY_PER_IP, locals.ip);
  const account = await readJson(request, ConsumerVerifyBody);
  return Response.json(
    await verifyConsumerAccount(locals.app.db, locals.app.suppliers(), params.game ?? "", account),
  );
};
