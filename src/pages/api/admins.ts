import type { APIRoute } from "astro";
import { requireAdmin } from "../../server/http.ts";
import { listAllAdmins } from "../../domain/users.ts";

export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await listAllAdmins(locals.app.db));
};
