import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { ResellerListQuery } from "../../server/reseller-inputs.ts";
import { listResellers } from "../../domain/resellers/accounts.ts";

/** Admins: live resellers by name; ?search= matches name, email or phone (spec §2). */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  const { search } = readQuery(url, ResellerListQuery);
  return Response.json(await listResellers(locals.app.db, search));
};
