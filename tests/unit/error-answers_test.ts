import assert from "node:assert/strict";
import * as errors from "../../src/domain/errors.ts";
import { MoneyFormatError } from "../../src/domain/money.ts";
import { ERROR_ANSWERS, errorAnswerOf } from "../../src/server/errors.ts";
import { errorResponse } from "../../src/server/http.ts";
import { buildOpenApiDocument } from "../../src/server/openapi.ts";
import { v1ErrorResponse } from "../../src/server/reseller-api.ts";

const { DomainError } = errors;

/** Every error kind src/domain/errors.ts exports, the base class included. */
const kinds = Object.values(errors).filter((value): value is typeof DomainError =>
  value === DomainError ||
  (typeof value === "function" && value.prototype instanceof DomainError)
);

Deno.test("[error answers] every kind of DomainError has its own row in the one table", () => {
  assert.ok(kinds.length > 5, "the kinds are found");
  const unmapped = kinds.filter((kind) => !ERROR_ANSWERS.has(kind)).map((kind) => kind.name);
  assert.deepEqual(unmapped, [], "a new error kind needs its status in src/server/errors.ts");
  const stale = [...ERROR_ANSWERS.keys()].filter((kind) => !kinds.includes(kind as never));
  assert.deepEqual(stale, [], "the table names no class that errors.ts does not export");
});

/** Each kind's portal status, v1 status and v1 code: the answers clients already rely on. */
const ANSWERED: Record<string, [number, number, string]> = {
  DomainError: [500, 500, "internal_error"],
  ValidationError: [400, 400, "invalid_request"],
  UnauthenticatedError: [401, 401, "unauthenticated"],
  ForbiddenError: [403, 403, "forbidden"],
  InsufficientBalanceError: [403, 402, "insufficient_balance"],
  NotFoundError: [404, 404, "not_found"],
  ConflictError: [409, 409, "conflict"],
  PayloadTooLargeError: [413, 413, "payload_too_large"],
  UnsupportedMediaTypeError: [415, 415, "unsupported_media_type"],
  RequestTimeoutError: [408, 408, "request_timeout"],
  ThrottledError: [429, 429, "rate_limited"],
  UpstreamError: [502, 502, "upstream_error"],
};

function sample(kind: typeof DomainError): errors.DomainError {
  if (kind.name === "InsufficientBalanceError") return new errors.InsufficientBalanceError();
  if (kind.name === "ThrottledError") return new errors.ThrottledError("Slow down", 30);
  return new kind("Something about this", { field: "x" });
}

Deno.test("[error answers] both APIs answer each kind with its status, code and body", async () => {
  assert.deepEqual(Object.keys(ANSWERED).sort(), kinds.map((k) => k.name).sort());
  for (const kind of kinds) {
    const [status, v1Status, code] = ANSWERED[kind.name];
    const error = sample(kind);
    const portal = errorResponse(error);
    assert.equal(portal.status, status, kind.name);
    assert.deepEqual(await portal.json(), { error: error.message, ...error.details });
    const v1 = v1ErrorResponse(error);
    assert.equal(v1.status, v1Status, kind.name);
    assert.deepEqual(await v1.json(), { error: { code, message: error.message } });
  }
});

Deno.test("[error answers] a kind extending another is answered as the one it extends", () => {
  assert.equal(
    errorAnswerOf(new MoneyFormatError("bad amount")),
    ERROR_ANSWERS.get(
      errors.ValidationError,
    ),
  );
});

Deno.test("[error answers] a throttled answer says when to retry; v1 asks for a bearer key", () => {
  const throttled = new errors.ThrottledError("Slow down", 30);
  assert.equal(errorResponse(throttled).headers.get("retry-after"), "30");
  assert.equal(v1ErrorResponse(throttled).headers.get("retry-after"), "30");
  const v1 = v1ErrorResponse(new errors.UnauthenticatedError("Missing API key"));
  assert.equal(v1.headers.get("www-authenticate"), "Bearer");
  assert.equal(
    errorResponse(new errors.UnauthenticatedError("x")).headers.has("www-authenticate"),
    false,
  );
});

Deno.test("[error answers] the OpenAPI document names each status with the table's code", () => {
  type Answer = { content?: { "application/json"?: { example?: { error?: { code?: string } } } } };
  const doc = buildOpenApiDocument("https://shop.example.com") as {
    paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
  };
  const documented = new Map<number, string>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const [status, answer] of Object.entries(op.responses)) {
        const code = answer.content?.["application/json"]?.example?.error?.code;
        if (code) documented.set(Number(status), code);
      }
    }
  }
  assert.ok(documented.has(402) && documented.has(502), "the error answers are found");
  for (const answer of ERROR_ANSWERS.values()) {
    const status = answer.v1Status ?? answer.status;
    if (documented.has(status)) assert.equal(documented.get(status), answer.v1Code, `${status}`);
  }
});
