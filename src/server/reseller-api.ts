// The plumbing of /api/v1: a route authenticates by its API key only (never the
// session cookie), counts against the key's rate limit, and answers every error in one shape,
// { error: { code, message } }, with a stable code.
import type { APIContext, APIRoute } from "astro";
import { DomainError, UnauthenticatedError } from "../domain/errors.ts";
import { authenticateApiKey } from "../domain/resellers/api-keys.ts";
import { API_KEY_REQUESTS, assertWithinRateLimit } from "../domain/auth/rate-limit.ts";
import { logger } from "../observability/log.ts";
import { errorAnswerOf, errorHeadersOf, type V1ErrorCode } from "./errors.ts";

/** A typed error's stable code and status: the portal's, where the API has none of its own. */
function codeOf(error: DomainError): { code: V1ErrorCode; status: number } {
  const answer = errorAnswerOf(error);
  return { code: answer.v1Code, status: answer.v1Status ?? answer.status };
}

/** The v1 error answer of a thrown error; unexpected errors are logged and hidden. */
export function v1ErrorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const { code, status } = codeOf(error);
    const headers = errorHeadersOf(error);
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
