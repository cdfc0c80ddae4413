import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { listReviewQueue } from "../../../domain/orders/review-queue.ts";

/** Admins: Orders → Needs review, the orders waiting for an operator with their attempts. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json({ orders: await listReviewQueue(locals.app.db) });
};
