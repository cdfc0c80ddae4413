import { headOf, v1Route } from "../../../server/reseller-api.ts";
import { getApiBalance } from "../../../domain/resellers/api.ts";

export const GET = v1Route(async ({ context: { locals }, reseller, seesHiddenGames }) =>
  Response.json(
    await getApiBalance(locals.app.db, { resellerId: reseller.id, seesHiddenGames }),
  )
);

export const HEAD = headOf(GET);
