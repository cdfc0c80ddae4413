import type { APIRoute } from "astro";
import { z } from "zod";
import { readJson, requireOwnResellerId } from "../../../server/http.ts";
import { changeResellerPassword } from "../../../domain/auth/users.ts";

const ChangePasswordInput = z.object({
  id: z.string().min(1).max(64),
  password: z.string().min(8, "Password must be at least 8 characters").max(1024),
});

export const POST: APIRoute = async ({ locals, request }) => {
  const { id, password } = await readJson(request, ChangePasswordInput);
  const resellerId = requireOwnResellerId(locals, id);
  await changeResellerPassword(locals.app.db, resellerId, password, locals.session!.idHash);
  return Response.json({ ok: true });
};
