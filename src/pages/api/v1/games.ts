import { headOf, v1Route } from "../../../server/reseller-api.ts";
import { listApiGames } from "../../../domain/resellers/api.ts";

export const GET = v1Route(async ({ context, reseller, seesHiddenGames }) =>
  Response.json({
    games: await listApiGames(context.locals.app.db, { resellerId: reseller.id, seesHiddenGames }),
  })
);

export const HEAD = headOf(GET);
