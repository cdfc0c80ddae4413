// The plumbing of /api/v1: a route authenticates by its API key only (never the
// session cookie), counts against the key's rate limit, and answers every error in one shape,
// { error: { code, message } }, with a stable code.
import type { APIContext, APIRoute } from "astro";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InsufficientBalanceError,
  NotFoundError,
  PayloadTooLargeError,
  RequestTimeoutError,
  ThrottledError,
  UnauthenticatedError,
  UpstreamError,
  ValidationError,
} from "../domain/errors.ts";
import { authenticateApiKey } from "../domain/resellers/api-keys.ts";
import { API_KEY_REQUESTS, assertWithinRateLimit } from "../domain/auth/rate-limit.ts";
import { logger } from "../observability/log.ts";

export const V1_ERROR_CODES = [
  "invalid_request",
  "unauthenticated",
  "forbidden",
  "insufficient_balance",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "request_timeout",
  "rate_limited",
  "upstream_error",
  "internal_error",
] as const;

export type V1ErrorCode = typeof V1_ERROR_CODES[number];

/** A typed error's stable code and status; insufficient balance is 402 here (403 in the portal). */
function codeOf(error: DomainError): { code: V1ErrorCode; status: number } {
  if (error instanceof InsufficientBalanceError) {
    return { code: "insufficient_balance", status: 402 };
  }
  const codes: [new (...a: never[]) => DomainError, V1ErrorCode][] = [
    [ValidationError, "invalid_request"],
    [UnauthenticatedError, "unauthenticated"],
    [ForbiddenError, "forbidden"],
    [NotFoundError, "not_found"],
    [ConflictError, "conflict"],
    [PayloadTooLargeError, "payload_too_large"],
    [RequestTimeoutError, "request_timeout"],
    [ThrottledError, "rate_limited"],
    [UpstreamError, "upstream_error"],
  ];
  const found = codes.find(([type]) => error instanceof type);
  return found ? { code: found[1], status: error.status } : { code: "internal_error", status: 500 };
}

/** The v1 error answer of a thrown error; unexpected errors are logged and hidden. */
export function v1ErrorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const { code, status } = codeOf(error);
    const headers: Record<string, string> = {};
    if (error instanceof ThrottledError) {
      headers["Retry-After"] = String(error.retryAfterSeconds);
    }
    if (error instanceof UnauthenticatedError) headers["WWW-Authenticate"] = "Bearer";
    return Response.json({ error: { code, message: error.message } }, { status, headers });
  }
  logger().error({ msg: "unexpected error", err: error });
  return Response.json({
    error: {
      code: "internal_error",
      message: "Something went wrong on our side. Please try again.",
    },
  }, { status: 500 });
}

/**
 * A v1 path asked with a method its route does not serve: Astro answers its HTML page, the API
 * answers its own shape (every v1 handler answers JSON, so a non-JSON answer is this case).
 */
export function v1MethodNotAllowed(response: Response): Response | undefined {
  if (response.headers.get("content-type")?.startsWith("application/json")) return undefined;
  return Response.json({
    error: { code: "method_not_allowed", message: "This method is not served at this path" },
  }, { status: 405 });
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

/** A /api/v1 route: authenticate by key, count against the key's limit, map errors to codes. */
export function v1Route(handler: (v1: V1Context) => Promise<Response>): APIRoute {
  return async (context) => {
    try {
      const db = context.locals.app.db;
      const { keyId, reseller } = await authenticateApiKey(db, bearerOf(context.request));
      await assertWithinRateLimit(db, API_KEY_REQUESTS, keyId);
      const seesHiddenGames = context.locals.app.config.privilegedResellers.includes(
        reseller.email,
      );
      return await handler({ context, reseller, keyId, seesHiddenGames });
    } catch (error) {
      return v1ErrorResponse(error);
    }
  };
}
