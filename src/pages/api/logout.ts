import type { APIRoute } from "astro";
import { signOut } from "../../domain/auth/auth.ts";
import { clearSessionCookie, SESSION_COOKIE } from "../../server/http.ts";

export const POST: APIRoute = async ({ locals, cookies }) => {
  const token = cookies.get(SESSION_COOKIE)?.value;
  const role = locals.session?.userType ?? null;
  if (token) await signOut(locals.app.db, token);
  clearSessionCookie(cookies);
  return Response.json({
    ok: true,
    redirect: role === "admin" ? "/admin" : role === "reseller" ? "/resellers" : "/",
  });
};
