import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { AuditQuery } from "../../server/admin-inputs.ts";
import { readAuditPage } from "../../domain/admin/audit.ts";

/** The Audit view's page: superadmins only; filters by actor, action and target; 20 a page. */
export const GET: APIRoute = async ({ locals, url }) => {
  const admin = requireAdmin(locals);
  const { page, ...filter } = readQuery(url, AuditQuery);
  return Response.json(await readAuditPage(locals.app.db, admin, filter, page));
};
