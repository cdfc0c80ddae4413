import type { APIRoute } from "astro";
import { NotFoundError } from "../../../../domain/errors.ts";
import { readConsumerOrderTimeline } from "../../../../domain/payments/consumer-order-timeline.ts";

// GET /order/{id}/timeline -> { status, entries, canCheckPayment }: what happened to a consumer
// order and when, for the result page and the order lookup. Like the status call it answers
// whoever holds the number, so it carries times and steps only: no names, ids or emails.
export const GET: APIRoute = async ({ locals, params }) => {
  if (!params.id || params.id.length > 64) throw new NotFoundError("Order not found");
  return Response.json(await readConsumerOrderTimeline(locals.app.db, params.id));
};
