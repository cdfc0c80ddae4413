import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { AdminOrdersQuery } from "../../server/order-inputs.ts";
import { listAdminOrders } from "../../domain/orders/admin-orders.ts";

/** Admins: one tab of orders, 20 a page, newest first, searched and paged by the database. */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  return Response.json(await listAdminOrders(locals.app.db, readQuery(url, AdminOrdersQuery)));
};
