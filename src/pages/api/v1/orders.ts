import { readJson, readQuery } from "../../../server/http.ts";
import { headOf, v1Route } from "../../../server/reseller-api.ts";
import { V1OrderInput, V1OrdersQuery } from "../../../server/reseller-api-inputs.ts";
import { idempotencyKeyOf } from "../../../server/order-inputs.ts";
import { placedOrderResponse } from "../../../server/place-order.ts";
import { listApiOrders, placeApiOrder } from "../../../domain/resellers/api.ts";
import { kickJobs } from "../../../domain/jobs.ts";
import { SUPPLIER_CREATE_JOB } from "../../../domain/orders/place.ts";

export const GET = v1Route(async ({ context: { locals, url }, reseller, seesHiddenGames }) => {
  const query = readQuery(url, V1OrdersQuery);
  return Response.json(
    await listApiOrders(locals.app.db, { resellerId: reseller.id, seesHiddenGames }, query),
  );
});

export const POST = v1Route(async ({ context: { locals, request }, reseller, seesHiddenGames }) => {
  const key = idempotencyKeyOf(request);
  const input = await readJson(request, V1OrderInput);
  const result = await placeApiOrder(
    { db: locals.app.db, suppliers: locals.app.suppliers() },
    { resellerId: reseller.id, seesHiddenGames },
    input,
    key,
  );
  kickJobs(SUPPLIER_CREATE_JOB);
  return placedOrderResponse(result);
});

export const HEAD = headOf(GET);
