import type { APIContext } from "astro";
import { z } from "zod";
import { signIn } from "../domain/auth/auth.ts";
import type { UserType } from "../db/schema.ts";
import { DEVICE_COOKIE, readJson, setDeviceCookie, setSessionCookie } from "./http.ts";

export const LoginInput = z.object({
  username: z.string().trim().min(1, "Please fill in email and password").max(
    320,
  ),
  password: z.string().min(1, "Please fill in email and password").max(1024),
  code: z.union([z.string().max(16), z.number().int().nonnegative()]).optional()
    .transform((v) => (v === undefined || v === "" ? undefined : String(v))),
});

/** Shared by /api/login_admin and /api/login_reseller: spec §7 Authentication. */
export async function handleLogin(
  context: APIContext,
  userType: UserType,
): Promise<Response> {
  const { locals, request, cookies, url } = context;
  const input = await readJson(request, LoginInput);
  const result = await signIn(locals.app.auth, {
    userType,
    email: input.username,
    password: input.password,
    code: input.code,
    ip: locals.ip,
    device: cookies.get(DEVICE_COOKIE)?.value,
  });
  const site = { url, config: locals.app.config };
  setSessionCookie(cookies, result.token, site);
  if (result.kind === "signed_in") setDeviceCookie(cookies, result.device, site);
  if (result.kind === "enrol") {
    return Response.json({
      user: result.user,
      qr: result.qr,
      secret: result.secret,
    }, {
      status: 202,
    });
  }
  return Response.json({
    user: result.user,
    verified2FA: result.kind === "signed_in",
    twoFARequired: result.kind === "second_factor",
  });
}
