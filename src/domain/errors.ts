/**
 * Base of the errors a request can end with. Each kind says what went wrong, never how it is
 * answered: `src/server/errors.ts` maps each to its HTTP status and body.
 */
export class DomainError extends Error {
  /** Extra fields merged into the JSON error body (for example zod issues). */
  readonly details?: Record<string, unknown>;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.details = details;
  }
}

export class ValidationError extends DomainError {
  override name = "ValidationError";
}

export class UnauthenticatedError extends DomainError {
  override name = "UnauthenticatedError";
}

export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
}

export class InsufficientBalanceError extends DomainError {
  override name = "InsufficientBalanceError";
  constructor() {
    super("Insufficient balance in your account, please check.");
  }
}

export class NotFoundError extends DomainError {
  override name = "NotFoundError";
}

export class ConflictError extends DomainError {
  override name = "ConflictError";
}

export class PayloadTooLargeError extends DomainError {
  override name = "PayloadTooLargeError";
}

/** The request's body is not in a format the route reads (the reseller API reads JSON only). */
export class UnsupportedMediaTypeError extends DomainError {
  override name = "UnsupportedMediaTypeError";
}

/** The client did not send its request in the time the server allows. */
export class RequestTimeoutError extends DomainError {
  override name = "RequestTimeoutError";
}

/** A client's standing in a rate limit's window. */
export interface RateQuota {
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends and the full limit is back. */
  resetSeconds: number;
  windowSeconds: number;
}

export class ThrottledError extends DomainError {
  override name = "ThrottledError";
  readonly retryAfterSeconds: number;
  /** Where the caller's quota stands, for a limit a client is told about (the reseller API's). */
  readonly quota?: RateQuota;
  constructor(message: string, retryAfterSeconds: number, quota?: RateQuota) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
    this.quota = quota;
  }
}

/** An outside service failed; the user sees the spec's failure text, data stays consistent. */
export class UpstreamError extends DomainError {
  override name = "UpstreamError";
}
