import type { APIRoute } from "astro";
import { z } from "zod";
import { verifySecondFactor } from "../../domain/auth/auth.ts";
import { UnauthenticatedError } from "../../domain/errors.ts";
import {
  DEVICE_COOKIE,
  readJson,
  readSessionToken,
  setDeviceCookie,
  setSessionCookie,
} from "../../server/http.ts";

// `user` and `secret` are part of the spec's payload but never trusted: the session names the
// user and the server holds the secret.
const VerifyInput = z.object({
  user: z.unknown().optional(),
  secret: z.unknown().optional(),
  code: z.union([z.string(), z.number().int().nonnegative()])
    .transform((v) => String(v).trim())
    .pipe(
      z.string().min(
        1,
        "Please enter the verification code as shown in your Authenticator App",
      )
        .max(16),
    ),
});

export const POST: APIRoute = async ({ locals, request, cookies, url }) => {
  const { code } = await readJson(request, VerifyInput);
  const token = readSessionToken(cookies, locals.app.config);
  if (!token) {
    throw new UnauthenticatedError("Verification failed, Please try again.");
  }
  const result = await verifySecondFactor(locals.app.auth, {
    token,
    code,
    device: cookies.get(DEVICE_COOKIE)?.value,
  });
  const site = { url, config: locals.app.config };
  setSessionCookie(cookies, result.token, site);
  setDeviceCookie(cookies, result.device, site);
  return Response.json({ verified2FA: true, user: result.user });
};
