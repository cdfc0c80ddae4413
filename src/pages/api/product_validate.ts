import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../server/http.ts";
import { MoogoldVerifyInput } from "../../server/order-inputs.ts";
import { verifySupplierAccount } from "../../domain/orders/verification.ts";
import { MOOGOLD_KEY } from "../../integrations/moogold/port.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireReseller(locals);
  const { game, userid, serverid, characterName } = await readJson(request, MoogoldVerifyInput);
  const product = { supplierName: "", supplierGameId: String(game) };
  return Response.json(
    await verifySupplierAccount(locals.app.suppliers(), MOOGOLD_KEY, product, {
      userid,
      serverid,
      characterName,
    }),
  );
};
