// The plumbing of /api/v1: a route authenticates by its API key only (never the
// session cookie), counts against the key's rate limit (and says where the key stands in
// RateLimit-* headers), reads JSON bodies only, and answers every error in one shape,
// { error: { code, message, requestId } }, with a stable code.
import type { APIContext, APIRoute } from "astro";
import {
  DomainError,
  type RateQuota,
  ThrottledError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from "../domain/errors.ts";
import { authenticateApiKey } from "../domain/resellers/api-keys.ts";
import { API_KEY_REQUESTS, takeRateLimitQuota } from "../domain/auth/rate-limit.ts";
import { logger } from "../observability/log.ts";
import { currentRequestId } from "../observability/context.ts";
import { errorAnswerOf, errorHeadersOf, type V1ErrorCode } from "./errors.ts";

/** A typed error's stable code and status: the portal's, where the API has none of its own. */
function codeOf(error: DomainError): { code: V1ErrorCode; status: number } {
  const answer = errorAnswerOf(error);
  return { code: answer.v1Code, status: answer.v1Status ?? answer.status };
}

/**
 * A v1 error body. It carries the request's id (the answer's X-Request-Id) so a developer who
 * pastes the body alone into a support message still names the request the logs know it by.
 */
function errorBody(code: V1ErrorCode, message: string) {
  const requestId = currentRequestId();
  return { error: { code, message, ...(requestId ? { requestId } : {}) } };
}

/** The v1 error answer of a thrown error; unexpected errors are logged and hidden. */
export function v1ErrorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const { code, status } = codeOf(error);
    const headers = errorHeadersOf(error);
    if (error instanceof UnauthenticatedError) headers["WWW-Authenticate"] = "Bearer";
    return Response.json(errorBody(code, error.message), { status, headers });
  }
  logger().error({ msg: "unexpected error", err: error });
  return Response.json(
    errorBody("internal_error", "Something went wrong on our side. Please try again."),
    { status: 500 },
  );
}

/**
 * The key's standing in its rate limit, on every answer to a keyed request. The IETF draft's
 * fields (draft-ietf-httpapi-ratelimit-headers: RateLimit-Limit, -Remaining, -Reset in seconds
 * from now, and RateLimit-Policy) rather than GitHub's X-RateLimit-*: the reset is a delay, so a
 * client whose clock is off still waits right, and common client libraries already read them.
 */
export function rateLimitHeaders(quota: RateQuota): Record<string, string> {
  return {
    "RateLimit-Limit": String(quota.limit),
    "RateLimit-Remaining": String(quota.remaining),
    "RateLimit-Reset": String(quota.resetSeconds),
    "RateLimit-Policy": `${quota.limit};w=${quota.windowSeconds}`,
  };
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** JSON, with or without parameters (`application/json; charset=utf-8`), or a `+json` type. */
function isJsonType(contentType: string): boolean {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * The API reads JSON bodies only: a body declared as anything else (or sent without a type) is
 * refused before it is read, so a form post or `text/plain` never places an order by accident.
 * A request without a body needs no type.
 */
function assertJsonBody(request: Request): void {
  if (!BODY_METHODS.has(request.method)) return;
  const type = request.headers.get("content-type");
  if (type !== null) {
    if (isJsonType(type)) return;
    throw new UnsupportedMediaTypeError(
      `Request bodies must be JSON (Content-Type: application/json), not ${
        type.split(";")[0].trim().slice(0, 100)
      }`,
    );
  }
  const length = request.headers.get("content-length");
  const hasBody = request.headers.has("transfer-encoding") || (length !== null && length !== "0");
  if (hasBody) {
    throw new UnsupportedMediaTypeError(
      "Request bodies must be JSON: send them with Content-Type: application/json",
    );
  }
}

/**
 * A v1 path asked with a method its route does not serve: Astro answers its HTML page, the API
 * answers its own shape (every v1 handler answers JSON, so a non-JSON answer is this case).
 */
export function v1MethodNotAllowed(response: Response): Response | undefined {
  if (response.headers.get("content-type")?.startsWith("application/json")) return undefined;
  return Response.json(
    errorBody("method_not_allowed", "This method is not served at this path"),
    { status: 405 },
  );
}

/** What a v1 handler gets: the request's context and the reseller its key belongs to. */
export interface V1Context {
  context: APIContext;
  reseller: Awaited<ReturnType<typeof authenticateApiKey>>["reseller"];
  keyId: string;
  /** The reseller may order hidden games (PRIVILEGED_RESELLERS). */
  seesHiddenGames: boolean;
}

function bearerOf(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * A /api/v1 route: authenticate by key, count against the key's limit, refuse a body that is not
 * JSON, map errors to codes; every answer to a known key carries its RateLimit-* headers.
 */
export function v1Route(handler: (v1: V1Context) => Promise<Response>): APIRoute {
  return async (context) => {
    let quota: RateQuota | undefined;
    let response: Response;
    try {
      const db = context.locals.app.db;
      const { keyId, reseller } = await authenticateApiKey(db, bearerOf(context.request));
      quota = await takeRateLimitQuota(db, API_KEY_REQUESTS, keyId);
      assertJsonBody(context.request);
      const seesHiddenGames = context.locals.app.config.privilegedResellers.includes(
        reseller.email,
      );
      response = await handler({ context, reseller, keyId, seesHiddenGames });
    } catch (error) {
      if (error instanceof ThrottledError && error.quota) quota = error.quota;
      response = v1ErrorResponse(error);
    }
    if (quota) {
      for (const [name, value] of Object.entries(rateLimitHeaders(quota))) {
        response.headers.set(name, value);
      }
    }
    return response;
  };
}

/**
 * HEAD for a GET route: the GET's status and headers without its body, so a client can check a
 * path (or its quota) as HTTP allows wherever GET is served. The body's length is kept, as the
 * server would have sent it for the GET.
 */
export function headOf(get: APIRoute): APIRoute {
  return async (context) => {
    const answer = await get(context);
    const headers = new Headers(answer.headers);
    headers.set("content-length", String((await answer.arrayBuffer()).byteLength));
    return new Response(null, { status: answer.status, headers });
  };
}
