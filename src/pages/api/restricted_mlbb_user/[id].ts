import type { APIRoute } from "astro";
import { requireAdmin, uuidParam } from "../../../server/http.ts";
import { removeRestrictedUser } from "../../../domain/orders/restricted-users.ts";

/** Spec §7 DELETE /restricted_mlbb_user/{id}. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Restricted user");
  await removeRestrictedUser(locals.app.db, admin, id);
  return Response.json({ deleted: id });
};
