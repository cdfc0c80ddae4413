// The one table from a typed error to its answer: the portal's JSON status and the reseller API's
// stable code. The domain throws errors that say what went wrong; only this file says how the
// edge answers them.
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
  UnsupportedMediaTypeError,
  UpstreamError,
  ValidationError,
} from "../domain/errors.ts";

export const V1_ERROR_CODES = [
  "invalid_request",
  "unauthenticated",
  "forbidden",
  "insufficient_balance",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "request_timeout",
  "rate_limited",
  "upstream_error",
  "internal_error",
] as const;

export type V1ErrorCode = typeof V1_ERROR_CODES[number];

/** How an error kind is answered. */
export interface ErrorAnswer {
  status: number;
  /** Its stable code in the reseller API's `{ error: { code, message } }`. */
  v1Code: V1ErrorCode;
  /** The reseller API's status where it differs from the portal's. */
  v1Status?: number;
}

// deno-lint-ignore no-explicit-any
type ErrorClass = abstract new (...args: any[]) => DomainError;

/**
 * Every kind of DomainError and its answer. A kind missing here would be answered as the base
 * class, a 500: tests/unit/error-answers_test.ts fails on it.
 */
export const ERROR_ANSWERS: ReadonlyMap<ErrorClass, ErrorAnswer> = new Map<
  ErrorClass,
  ErrorAnswer
>([
  [DomainError, { status: 500, v1Code: "internal_error" }],
  [ValidationError, { status: 400, v1Code: "invalid_request" }],
  [UnauthenticatedError, { status: 401, v1Code: "unauthenticated" }],
  [ForbiddenError, { status: 403, v1Code: "forbidden" }],
  // The portal's answer predates the API, which has a status of its own for a short balance.
  [InsufficientBalanceError, { status: 403, v1Code: "insufficient_balance", v1Status: 402 }],
  [NotFoundError, { status: 404, v1Code: "not_found" }],
  [RequestTimeoutError, { status: 408, v1Code: "request_timeout" }],
  [ConflictError, { status: 409, v1Code: "conflict" }],
  [PayloadTooLargeError, { status: 413, v1Code: "payload_too_large" }],
  [UnsupportedMediaTypeError, { status: 415, v1Code: "unsupported_media_type" }],
  [ThrottledError, { status: 429, v1Code: "rate_limited" }],
  [UpstreamError, { status: 502, v1Code: "upstream_error" }],
]);

/** The answer of `error`'s kind, or of the nearest kind it extends (MoneyFormatError's, say). */
export function errorAnswerOf(error: DomainError): ErrorAnswer {
  for (let kind = error.constructor; kind; kind = Object.getPrototypeOf(kind)) {
    const answer = ERROR_ANSWERS.get(kind as ErrorClass);
    if (answer) return answer;
  }
  return ERROR_ANSWERS.get(DomainError)!;
}

/** The headers an error's answer carries in either API: when a throttled client may try again. */
export function errorHeadersOf(error: DomainError): Record<string, string> {
  return error instanceof ThrottledError ? { "Retry-After": String(error.retryAfterSeconds) } : {};
}
