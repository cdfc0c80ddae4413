import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { CreateAdminInput } from "../../server/admin-inputs.ts";
import { createAdminAs } from "../../domain/admin/admins.ts";

/** Spec §7 POST /user: an admin creates an admin (Create user form); rank rules in the domain. */
export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const form = await readJson(request, CreateAdminInput);
  const created = await createAdminAs(locals.app.db, { kind: "admin", admin }, form);
  return Response.json(created, { status: 201 });
};
