import type { APIRoute } from "astro";
import { requireAdmin } from "../../../../server/http.ts";
import { syncGameBySupplierName } from "../../../../domain/catalogue/price-sync.ts";
import { NotFoundError, UpstreamError } from "../../../../domain/errors.ts";

export const POST: APIRoute = async ({ locals, params }) => {
  requireAdmin(locals);
  if (!params.supplierName) throw new NotFoundError("No launched game");
  const report = await syncGameBySupplierName(
    locals.app.db,
    locals.app.suppliers(),
    params.supplierName,
  );
  if (!report.ok) throw new UpstreamError(report.error ?? "Price sync failed", { report });
  return Response.json(report);
};
