import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { RestrictedUserInput } from "../../server/admin-inputs.ts";
import { addRestrictedUser } from "../../domain/orders/restricted-users.ts";

/** Spec §7 POST /restricted_mlbb_user: a duplicate is a 409 with the spec §5 text. */
export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const ids = await readJson(request, RestrictedUserInput);
  return Response.json(await addRestrictedUser(locals.app.db, admin, ids), { status: 201 });
};
