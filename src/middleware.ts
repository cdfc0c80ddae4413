import { defineMiddleware } from "astro/middleware";
import { getAppContext } from "./server/context.ts";
import { loadSession } from "./domain/auth.ts";
import { clientIp, errorResponse, MAX_BODY_BYTES, SESSION_COOKIE } from "./server/http.ts";
import { ForbiddenError, PayloadTooLargeError } from "./domain/errors.ts";
import { v1ErrorResponse, v1MethodNotAllowed } from "./server/reseller-api.ts";

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

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url, locals, cookies } = context;
  const isApi = url.pathname.startsWith("/api/");
  // The reseller API authenticates by key only: no session is loaded, so a cookie never counts,
  // and without a cookie there is no cross-site request to refuse (issue 11).
  const isResellerApi = url.pathname.startsWith("/api/v1/");
  // Uploads answer JSON errors too, and enforce their own (larger) size limit while reading.
  const isUpload = url.pathname.startsWith("/uploads/");
  // Inbound mail (attachments included) also has its own, larger limit.
  const ownSizeLimit = isUpload || url.pathname === "/api/inbound-email";
  try {
    const app = await getAppContext();
    locals.app = app;
    locals.ip = clientIp(request, context.clientAddress, app.config.trustProxy);

    if (!SAFE_METHODS.has(request.method)) {
      if (!isResellerApi) assertSameOrigin(request, url, app.config.publicUrl);
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > MAX_BODY_BYTES && !ownSizeLimit) {
        throw new PayloadTooLargeError("Request body is too large");
      }
    }

    const token = cookies.get(SESSION_COOKIE)?.value;
    locals.session = token && !isResellerApi ? await loadSession(app.auth, token) : null;
    const active = locals.session?.stage === "active" ? locals.session : null;

    if (url.pathname === "/admin/home") {
      if (active?.userType !== "admin") return context.redirect("/admin", 302);
    } else if (url.pathname === "/resellers/home") {
      if (active?.userType !== "reseller") {
        return context.redirect("/resellers", 302);
      }
    }

    const served = await next();
    const response = (isResellerApi && v1MethodNotAllowed(served)) || served;
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) {
      response.headers.set(k, v);
    }
    if (isApi) response.headers.set("Cache-Control", "no-store");
    return response;
  } catch (error) {
    if (isResellerApi) return v1ErrorResponse(error);
    if (isApi || isUpload) return errorResponse(error);
    throw error;
  }
});
