import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "../../../server/http.ts";
import { UpdateAdminInput } from "../../../server/admin-inputs.ts";
import { deleteAdminAs, updateAdminAs } from "../../../domain/admin/admins.ts";

/** Spec §7 PUT /admin/{id}: name, email, rank, password, remarks (rank rules in the domain). */
export const PUT: APIRoute = async ({ locals, params, request }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Admin");
  const form = await readJson(request, UpdateAdminInput);
  const actor = { kind: "admin" as const, admin, sessionIdHash: locals.session!.idHash };
  return Response.json(await updateAdminAs(locals.app.db, actor, id, form));
};

/** Spec §7 DELETE /admin/{id}: never oneself, never the last superadmin. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Admin");
  await deleteAdminAs(locals.app.db, { kind: "admin", admin }, id);
  return Response.json({ deleted: id });
};
