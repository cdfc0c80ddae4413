/** Base of the errors a request can end with; `status` is the HTTP status the edge answers. */
export class DomainError extends Error {
  readonly status: number = 500;
  /** Extra fields merged into the JSON error body (for example zod issues). */
  readonly details?: Record<string, unknown>;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.details = details;
  }
}

export class ValidationError extends DomainError {
  override readonly status = 400;
  override name = "ValidationError";
}

export class UnauthenticatedError extends DomainError {
  override readonly status = 401;
  override name = "UnauthenticatedError";
}

export class ForbiddenError extends DomainError {
  override readonly status = 403;
  override name = "ForbiddenError";
}

export class InsufficientBalanceError extends DomainError {
  override readonly status = 403;
  override name = "InsufficientBalanceError";
  constructor() {
    super("Insufficient balance in your account, please check.");
  }
}

export class NotFoundError extends DomainError {
  override readonly status = 404;
  override name = "NotFoundError";
}

export class ConflictError extends DomainError {
  override readonly status = 409;
  override name = "ConflictError";
}

export class PayloadTooLargeError extends DomainError {
  override readonly status = 413;
  override name = "PayloadTooLargeError";
}

/** The client did not send its request in the time the server allows. */
export class RequestTimeoutError extends DomainError {
  override readonly status = 408;
  override name = "RequestTimeoutError";
}

export class ThrottledError extends DomainError {
  override readonly status = 429;
  override name = "ThrottledError";
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** An outside service failed; the user sees the spec's failure text, data stays consistent. */
export class UpstreamError extends DomainError {
  override readonly status = 502;
  override name = "UpstreamError";
}
