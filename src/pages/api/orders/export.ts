import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../../server/http.ts";
import { AdminOrdersQuery } from "../../../server/order-inputs.ts";
import { adminOrdersWorkbookStream, ordersExportFileName } from "../../../domain/orders/export.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Admins: the current tab and search as a streamed .xlsx with the spec §9 admin columns. */
export const GET: APIRoute = ({ locals, url }) => {
  requireAdmin(locals);
  const { buyerType, search } = readQuery(url, AdminOrdersQuery);
  const filter = { buyerType, search: search.trim() || undefined };
  return new Response(adminOrdersWorkbookStream(locals.app.db, filter), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${ordersExportFileName(new Date())}"`,
    },
  });
};
