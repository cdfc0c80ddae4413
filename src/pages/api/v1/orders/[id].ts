import { headOf, v1Route } from "../../../../server/reseller-api.ts";
import { getApiOrder } from "../../../../domain/resellers/api.ts";

export const GET = v1Route(async ({ context: { locals, params }, reseller, seesHiddenGames }) =>
  Response.json({
    order: await getApiOrder(
      locals.app.db,
      { resellerId: reseller.id, seesHiddenGames },
      params.id ?? "",
    ),
  })
);

export const HEAD = headOf(GET);
