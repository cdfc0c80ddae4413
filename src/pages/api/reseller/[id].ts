import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "../../../server/http.ts";
import { ResellerEditInput } from "../../../server/reseller-inputs.ts";
import { editReseller, removeReseller } from "../../../domain/resellers/accounts.ts";
import { adminActor } from "../../../domain/actor.ts";

/** Admins edit a reseller's details and markups; a changed balance is refused (409). */
export const PUT: APIRoute = async ({ locals, request, params }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Reseller");
  const input = await readJson(request, ResellerEditInput);
  return Response.json(await editReseller(locals.app.db, id, input, adminActor(admin)));
};

/** Admins delete a reseller: soft, its orders and history stay, its sessions end. */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  await removeReseller(locals.app.db, uuidParam(params.id, "Reseller"), adminActor(admin));
  return Response.json({ ok: true });
};
