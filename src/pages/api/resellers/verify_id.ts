import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../../server/http.ts";
import { ElitediasVerifyInput } from "../../../server/order-inputs.ts";
import { verifyElitediasAccount } from "../../../domain/orders/verification.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireReseller(locals);
  const { game, userid, serverid } = await readJson(request, ElitediasVerifyInput);
  return Response.json(
    await verifyElitediasAccount(locals.app.suppliers(), game, userid, serverid),
  );
};
