import { readJson } from "../../../server/http.ts";
import { v1Route } from "../../../server/reseller-api.ts";
import { V1VerifyInput } from "../../../server/reseller-api-inputs.ts";
import { verifyApiAccount } from "../../../domain/resellers/api.ts";

export const POST = v1Route(async ({ context: { locals, request }, reseller, seesHiddenGames }) => {
  const input = await readJson(request, V1VerifyInput);
  return Response.json(
    await verifyApiAccount(
      { db: locals.app.db, suppliers: locals.app.suppliers() },
      { resellerId: reseller.id, seesHiddenGames },
      input,
    ),
  );
});
