import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../server/http.ts";
import { MoogoldVerifyInput } from "../../server/order-inputs.ts";
import { validateMoogoldAccount } from "../../domain/orders/verification.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireReseller(locals);
  const { game, userid, serverid, characterName } = await readJson(request, MoogoldVerifyInput);
  return Response.json(
    await validateMoogoldAccount(locals.app.suppliers(), game, userid, serverid, characterName),
  );
};
