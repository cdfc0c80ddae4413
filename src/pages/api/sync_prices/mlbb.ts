import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { syncGameBySupplierName } from "../../../domain/catalogue/price-sync.ts";
import { MLBB_SUPPLIER_NAME } from "../../../domain/catalogue/games.ts";
import { UpstreamError } from "../../../domain/errors.ts";

export const POST: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  const report = await syncGameBySupplierName(
    locals.app.db,
    locals.app.suppliers(),
    MLBB_SUPPLIER_NAME,
  );
  if (!report.ok) throw new UpstreamError(report.error ?? "Price sync failed", { report });
  return Response.json(report);
};
