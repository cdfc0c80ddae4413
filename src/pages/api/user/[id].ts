import type { APIRoute } from "astro";
import { requireAdmin, uuidParam } from "../../../server/http.ts";
import { deleteConsumer } from "../../../domain/admin/consumers.ts";
import { adminActor } from "../../../domain/actor.ts";

/** Spec §7 DELETE /user/{id}: the Consumers list's delete (admins use DELETE /admin/{id}). */
export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  await deleteConsumer(locals.app.db, uuidParam(params.id, "Consumer"), adminActor(admin));
  return Response.json({ ok: true });
};
