import { defineMiddleware } from "astro/middleware";
import { getAppContext } from "./server/context.ts";
import { loadSession } from "./domain/auth/auth.ts";
import { clientIp, errorResponse, readSessionToken } from "./server/http.ts";
import { ForbiddenError } from "./domain/errors.ts";
import { setSecurityHeaders } from "./server/security-headers.ts";
import { pageGuardRedirect } from "./server/page-guards.ts";
import { v1ErrorResponse, v1MethodNotAllowed } from "./server/reseller-api.ts";
import { noteRoute } from "./observability/context.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie sessions need CSRF defence: a state-changing request from a browser must come from our
 * own origin. Requests without Origin and Sec-Fetch-Site are not from a browser page.
 */
function assertSameOrigin(
  request: Request,
  url: URL,
  publicUrl: string | undefined,
): void {
  const origin = request.headers.get("origin");
  if (origin) {
    const allowed = new Set([
      url.origin,
      ...(publicUrl ? [new URL(publicUrl).origin] : []),
    ]);
    if (!allowed.has(origin)) {
      throw new ForbiddenError("Cross-origin request refused");
    }
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new ForbiddenError("Cross-origin request refused");
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url, locals, cookies } = context;
  // The request's log line and metrics name its route pattern, never the path's values.
  noteRoute(context.routePattern);
  const isApi = url.pathname.startsWith("/api/");
  // The reseller API authenticates by key only: no session is loaded, so a cookie never counts,
  // and without a cookie there is no cross-site request to refuse.
  const isResellerApi = url.pathname.startsWith("/api/v1/");
  // Uploads answer JSON errors too.
  const isUpload = url.pathname.startsWith("/uploads/");
  let response: Response;
  try {
    const app = await getAppContext();
    locals.app = app;
    locals.ip = clientIp(request, context.clientAddress, app.config.trustProxy);

    // Body size and time limits are the HTTP server's (cli/http-guard.ts), applied while reading.
    if (!SAFE_METHODS.has(request.method) && !isResellerApi) {
      assertSameOrigin(request, url, app.config.publicUrl);
    }

    const token = readSessionToken(cookies, app.config);
    locals.session = token && !isResellerApi ? await loadSession(app.auth, token) : null;
    // A password-only (pre-2FA) session is no session here: it opens the two-factor screen only.
    const active = locals.session?.stage === "active" ? locals.session : null;
    const signIn = pageGuardRedirect(url.pathname, active);
    if (signIn) return context.redirect(signIn, 302);

    const served = await next();
    response = (isResellerApi && v1MethodNotAllowed(served)) || served;
  } catch (error) {
    if (isResellerApi) response = v1ErrorResponse(error);
    else if (isApi || isUpload) response = errorResponse(error);
    else throw error;
  }
  setSecurityHeaders(response.headers, locals.app?.config.mode === "production");
  // An answer made for a signed-in user (or one half way through signing in) is never kept by a
  // browser or a shared cache.
  if (isApi || locals.session) response.headers.set("Cache-Control", "no-store");
  return response;
});
