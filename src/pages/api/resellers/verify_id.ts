import type { APIRoute } from "astro";
import { readJson, requireReseller } from "../../../server/http.ts";
import { ElitediasVerifyInput } from "../../../server/order-inputs.ts";
import { verifySupplierAccount } from "../../../domain/orders/verification.ts";
import { ELITEDIAS_KEY } from "../../../integrations/elitedias/port.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireReseller(locals);
  const { game, userid, serverid } = await readJson(request, ElitediasVerifyInput);
  const code = { supplierName: game, supplierGameId: null };
  return Response.json(
    await verifySupplierAccount(locals.app.suppliers(), ELITEDIAS_KEY, code, {
      userid,
      serverid,
      characterName: "",
    }),
  );
};
