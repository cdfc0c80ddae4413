import { readQuery } from "../../../../server/http.ts";
import { headOf, v1Route } from "../../../../server/reseller-api.ts";
import { V1HistoryQuery } from "../../../../server/reseller-api-inputs.ts";
import { listApiBalanceHistory } from "../../../../domain/resellers/api.ts";

export const GET = v1Route(async ({ context: { locals, url }, reseller, seesHiddenGames }) => {
  const query = readQuery(url, V1HistoryQuery);
  return Response.json(
    await listApiBalanceHistory(locals.app.db, { resellerId: reseller.id, seesHiddenGames }, query),
  );
});

export const HEAD = headOf(GET);
