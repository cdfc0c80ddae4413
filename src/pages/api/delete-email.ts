import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { DeleteEmailInput } from "../../server/email-inputs.ts";
import { deleteEmail } from "../../domain/mail/mailbox.ts";
import { adminActor } from "../../domain/actor.ts";

/** Admin only (spec §7 POST /delete-email): removes a message from its folder, audited. */
export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const { id } = await readJson(request, DeleteEmailInput);
  await deleteEmail(locals.app.db, adminActor(admin), id);
  return Response.json({ deleted: true });
};
