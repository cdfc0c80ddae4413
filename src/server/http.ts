import type { AstroCookies } from "astro";
import type { Config } from "../config.ts";
import type { z } from "zod";
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthenticatedError,
  ValidationError,
} from "../domain/errors.ts";
import type { CurrentSession } from "../domain/auth/auth.ts";
import { isAdminRank, type PublicAdmin, type PublicReseller } from "../domain/auth/users.ts";
import { MAX_UPLOAD_BYTES } from "../domain/catalogue/uploads.ts";
import { MAX_INBOUND_BYTES } from "../domain/mail/inbound.ts";
import { v1ErrorResponse } from "./reseller-api.ts";
import { errorAnswerOf, errorHeadersOf } from "./errors.ts";
import { logger } from "../observability/log.ts";

/**
 * The session cookie's name. Production's carries the __Host- prefix: browsers then take it only
 * Secure, for the whole site and from this host alone, so a sibling subdomain or a plain-http
 * answer cannot plant one (session fixation by cookie tossing). The demo runs on plain http,
 * where such a cookie would be refused.
 */
export function sessionCookieName(config: Pick<Config, "mode">): string {
  return config.mode === "production" ? "__Host-topup_session" : "topup_session";
}

/** The session token the browser sent, if any. */
export function readSessionToken(
  cookies: AstroCookies,
  config: Pick<Config, "mode">,
): string | undefined {
  return cookies.get(sessionCookieName(config))?.value;
}
/** The browser's device cookie: the accounts that signed in on it (src/domain/auth/devices.ts). */
export const DEVICE_COOKIE = "topup_device";
const DEVICE_COOKIE_DAYS = 365;
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The largest request body a path takes: uploads and inbound mail (attachments) their own larger
 * limits, every other route 1 MiB. The HTTP server enforces it while the body streams in.
 */
export function bodyLimitFor(pathname: string): number {
  if (pathname.startsWith("/uploads/")) return MAX_UPLOAD_BYTES;
  if (pathname === "/api/inbound-email") return MAX_INBOUND_BYTES;
  return MAX_BODY_BYTES;
}

/** The JSON answer to `error` in the error shape of the path's API (the reseller API has its own). */
export function errorResponseFor(pathname: string, error: unknown): Response {
  return pathname.startsWith("/api/v1/") ? v1ErrorResponse(error) : errorResponse(error);
}

/** Reads a JSON body and parses it with `schema`; anything malformed is a 400, never a 500. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.output<S>> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) {
    throw new PayloadTooLargeError("Request body is too large");
  }
  let body: unknown;
  try {
    body = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new ValidationError("Request body must be valid JSON");
  }
  return parseWith(schema, body);
}

/** Parses a URL's query parameters with `schema` (each a string); a bad one is a 400. */
export function readQuery<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  return parseWith(schema, Object.fromEntries(url.searchParams));
}

/**
 * The path of the first string (value or key) in `value` that no text column can store: one with
 * a NUL character (PostgreSQL refuses it) or a lone UTF-16 surrogate (not Unicode text), with why.
 * Such input is refused before any schema runs.
 */
function badTextIn(value: unknown): { path: string[]; message: string } | undefined {
  // A stack, not recursion, and paths linked to their parent: a 1 MiB body can nest a million deep.
  type Step = { key: string; parent?: Step };
  const pathOf = (step?: Step): string[] => {
    const keys: string[] = [];
    for (let s = step; s; s = s.parent) keys.push(s.key);
    return keys.reverse();
  };
  const pending: [unknown, Step | undefined][] = [[value, undefined]];
  while (pending.length) {
    const [item, at] = pending.pop()!;
    if (typeof item === "string") {
      const message = badTextReason(item);
      if (message) return { path: pathOf(at), message };
    }
    if (typeof item !== "object" || item === null) continue;
    for (const [key, inner] of Object.entries(item)) {
      const message = badTextReason(key);
      if (message) return { path: pathOf({ key, parent: at }), message };
      pending.push([inner, { key, parent: at }]);
    }
  }
  return undefined;
}

/** Why `text` cannot be stored as text, if it cannot. */
export function badTextReason(text: string): string | undefined {
  if (text.includes("\0")) return "must not contain NUL characters";
  if (!text.isWellFormed()) return "must be valid Unicode text";
  return undefined;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const bad = badTextIn(value);
  if (bad) {
    const path = bad.path.join(".");
    throw new ValidationError(path ? `${path}: ${bad.message}` : `Input ${bad.message}`, {
      issues: [{ path, message: bad.message }],
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: i.path.join("."),
      message: i.message,
    }));
    const first = issues[0];
    throw new ValidationError(
      first.path ? `${first.path}: ${first.message}` : first.message,
      { issues },
    );
  }
  return parsed.data;
}

/** Maps a thrown error to the JSON error response; unexpected errors are logged and hidden. */
export function errorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    return Response.json({ error: error.message, ...error.details }, {
      status: errorAnswerOf(error).status,
      headers: errorHeadersOf(error),
    });
  }
  logger().error({ msg: "unexpected error", err: error });
  return Response.json({
    error: "Something went wrong on our side. Please try again.",
  }, {
    status: 500,
  });
}

/** The signed-in, two-factor-complete admin whose rank allows the console; otherwise 401/403. */
export function requireAdmin(locals: App.Locals): PublicAdmin {
  const s = requireActive(locals);
  if (s.user.role !== "admin" || !isAdminRank(s.user.rank)) {
    throw new ForbiddenError("Only admins can do this");
  }
  return s.user;
}

/** The signed-in reseller; otherwise 401/403. */
export function requireReseller(locals: App.Locals): PublicReseller {
  const s = requireActive(locals);
  if (s.user.role !== "reseller") {
    throw new ForbiddenError("Only resellers can do this");
  }
  return s.user;
}

function requireActive(locals: App.Locals): CurrentSession {
  const s = locals.session;
  if (!s || s.stage !== "active") {
    throw new UnauthenticatedError("Please sign in");
  }
  return s;
}

/**
 * Sets the session cookie: HttpOnly, SameSite=Lax, and Secure in production whatever the request's
 * scheme (TLS usually ends at a proxy in front of the app, which forwards plain http), elsewhere
 * when the request came over HTTPS or the public URL is HTTPS.
 */
export function setSessionCookie(
  cookies: AstroCookies,
  token: string,
  request: { url: URL; config: Pick<Config, "mode" | "publicUrl"> },
): void {
  cookies.set(sessionCookieName(request.config), token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request),
  });
}

/**
 * Sets the device cookie after a finished sign-in, with the session cookie's flags; it outlives
 * sessions and sign-outs, since it marks the browser, not a sign-in.
 */
export function setDeviceCookie(
  cookies: AstroCookies,
  value: string,
  request: { url: URL; config: Pick<Config, "mode" | "publicUrl"> },
): void {
  cookies.set(DEVICE_COOKIE, value, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request),
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

/** Secure in production whatever the request's scheme (a TLS proxy forwards plain http). */
function isSecure(request: { url: URL; config: Pick<Config, "mode" | "publicUrl"> }): boolean {
  const { mode, publicUrl } = request.config;
  return mode === "production" || request.url.protocol === "https:" ||
    !!publicUrl?.startsWith("https:");
}

export function clearSessionCookie(cookies: AstroCookies, config: Pick<Config, "mode">): void {
  cookies.delete(sessionCookieName(config), { path: "/" });
}

/**
 * The client address: the socket's, or behind a trusted proxy (one, in front of the app) the
 * address that proxy appended to X-Forwarded-For: the last entry. The entries before it came from
 * the client and can say anything.
 */
export function clientIp(
  request: Request,
  socketAddress: string,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that must be a UUID; anything else is a 404 (not a database error). */
export function uuidParam(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new NotFoundError(`${what} not found`);
  return value.toLowerCase();
}

/** The signed-in reseller's id, when `id` is theirs; another reseller's id is not found (spec §6). */
export function requireOwnResellerId(locals: App.Locals, id: string | undefined): string {
  const reseller = requireReseller(locals);
  if (id !== reseller._id) throw new NotFoundError("Not found");
  return reseller._id;
}
