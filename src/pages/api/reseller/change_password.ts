import type { APIRoute } from "astro";
import { z } from "zod";
import { readJson, requireOwnResellerId } from "../../../server/http.ts";
import { changeResellerPassword } from "../../../domain/auth/users.ts";

// Spec §7: id and password; we add the current password, checked before any change.
const ChangePasswordInput = z.object({
  id: z.string().min(1).max(64),
  password: z.string().min(8, "Password must be at least 8 characters").max(1024),
  currentPassword: z.string().max(1024).optional(),
});

export const POST: APIRoute = async ({ locals, request }) => {
  const { id, password, currentPassword } = await readJson(request, ChangePasswordInput);
  const resellerId = requireOwnResellerId(locals, id);
  await changeResellerPassword(
    locals.app.db,
    resellerId,
    { currentPassword, password },
    locals.session!.idHash,
  );
  return Response.json({ ok: true });
};
