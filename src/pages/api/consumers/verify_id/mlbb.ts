import type { APIRoute } from "astro";
import {
  assertWithinRateLimit,
  CONSUMER_VERIFY_PER_IP,
} from "../../../../domain/auth/rate-limit.ts";
import { verifyConsumerMlbbAccount } from "../../../../domain/payments/consumer-checkout.ts";
import { readJson } from "../../../../server/http.ts";
import { MlbbVerifyInput } from "../../../../server/order-inputs.ts";

// Spec §7 Consumer: POST /consumers/verify_id/mlbb {userid, serverid} -> the verify answer plus the
// server's package decision. Anonymous, so limited per client address: each call costs two
// supplier checks.
export const POST: APIRoute = async ({ locals, request }) => {
  await assertWithinRateLimit(locals.app.db, CONSUMER_VERIFY_PER_IP, locals.ip);
  const account = await readJson(request, MlbbVerifyInput);
  return Response.json(
    await verifyConsumerMlbbAccount(locals.app.db, locals.app.suppliers(), account),
  );
};
