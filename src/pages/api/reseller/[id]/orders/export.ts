import type { APIRoute } from "astro";
import { requireReseller, uuidParam } from "../../../../../server/http.ts";
import { NotFoundError } from "../../../../../domain/errors.ts";
import {
  ordersExportFileName,
  resellerOrdersWorkbookStream,
} from "../../../../../domain/orders/export.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The signed-in reseller's own orders as a streamed .xlsx; another reseller's id is a 404. */
export const GET: APIRoute = ({ locals, params }) => {
  const reseller = requireReseller(locals);
  const id = uuidParam(params.id, "Reseller");
  // Not 403: whether another reseller's id exists is not this reseller's business.
  if (id !== reseller._id) throw new NotFoundError("Reseller not found");
  return new Response(resellerOrdersWorkbookStream(locals.app.db, id), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${ordersExportFileName(new Date())}"`,
    },
  });
};
