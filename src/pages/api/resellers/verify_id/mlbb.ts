import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../../../server/http.ts";
import { MlbbVerifyInput } from "../../../../server/order-inputs.ts";
import { verifyMlbbForOrder } from "../../../../domain/orders/verification.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireReseller(locals);
  const { userid, serverid } = await readJson(request, MlbbVerifyInput);
  return Response.json(
    await verifyMlbbForOrder(locals.app.db, locals.app.suppliers(), userid, serverid),
  );
};
