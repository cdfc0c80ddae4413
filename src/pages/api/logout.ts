import type { APIRoute } from "astro";
import { signOut } from "../../domain/auth/auth.ts";
import { clearSessionCookie, readSessionToken } from "../../server/http.ts";

export const POST: APIRoute = async ({ locals, cookies }) => {
  const token = readSessionToken(cookies, locals.app.config);
  const role = locals.session?.userType ?? null;
  if (token) await signOut(locals.app.db, token);
  clearSessionCookie(cookies, locals.app.config);
  return Response.json({
    ok: true,
    redirect: role === "admin" ? "/admin" : role === "reseller" ? "/resellers" : "/",
  });
};
