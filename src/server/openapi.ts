// The OpenAPI 3.1 document of /api/v1 (issues 11 and 25), generated from the operations of
// server/reseller-api-operations.ts: the zod schemas that parse each request and the zod schemas
// of each answer, turned into JSON Schema by zod itself. Nothing here is written by hand but the
// prose and the error table; tests/api/reseller-api-contract_test.ts holds the server to it.
import { z } from "zod";
import {
  V1_OPERATIONS,
  type V1Operation,
  type V1OperationError,
} from "./reseller-api-operations.ts";
import type { V1ErrorCode } from "./errors.ts";
import { API_KEY_REQUESTS, RATE_LIMITED_MESSAGE } from "../domain/auth/rate-limit.ts";
import { RETENTION } from "../domain/housekeeping.ts";

/**
 * Schemas given an id (`.meta({ id })`, the verify result's shapes) become components, named in
 * the document, so a discriminator can map each `shape` to one and a generated client names them.
 */
const NAMED_SCHEMAS = new Map<string, unknown>();

/** `#/$defs/X` (zod's, within one schema) to `#/components/schemas/X` (the document's). */
function toComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string"
        ? inner.replace(/^#\/\$defs\//, "#/components/schemas/")
        : toComponentRefs(inner),
    ]),
  );
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as Record<string, unknown>;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    NAMED_SCHEMAS.set(name, toComponentRefs(def));
  }
  return toComponentRefs(rest) as Record<string, unknown>;
}

/** The headers of every answer to a request with a valid key (the RateLimit-* fields). */
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": "Requests the key may make in a window",
  "RateLimit-Remaining": "Requests the key has left in the current window",
  "RateLimit-Reset": "Seconds until the current window ends and the full limit is back",
  "RateLimit-Policy":
    `The limit and its window in seconds: \`${API_KEY_REQUESTS.max};w=${API_KEY_REQUESTS.windowSeconds}\``,
};

/** Named headers, referenced from each answer. */
const HEADERS: Record<string, unknown> = {
  ...Object.fromEntries(
    Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [name, {
      description:
        `${description}. On every answer to a request with a valid key (not on 401, 405, 408 or 413).`,
      schema: name === "RateLimit-Policy"
        ? { type: "string", minLength: 1 }
        : { type: "integer", minimum: 0 },
    }]),
  ),
  "X-Request-Id": {
    description:
      "This request's id, also in every error body as `error.requestId`: quote it when you write to us",
    required: true,
    schema: { type: "string", minLength: 8 },
  },
};

const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** The headers of an answer: its request id always, the key's quota when a key was taken. */
function answerHeaders(keyed: boolean): Record<string, unknown> {
  return headerRefs([
    "X-Request-Id",
    ...(keyed ? Object.keys(RATE_LIMIT_HEADERS) : []),
  ]);
}

/** Error statuses answered before (or without) a key's quota is taken. */
const UNKEYED = new Set([401, 405, 408, 413]);

interface ErrorKind {
  code: V1ErrorCode;
  name: string;
  description: string;
  message: string;
  headers?: Record<string, unknown>;
}

/** Each error status the API answers, its stable code and what it means. */
const ERRORS: Record<number, ErrorKind> = {
  400: {
    code: "invalid_request",
    name: "InvalidRequest",
    description: "The request is malformed or refused as it stands; the message says why",
    message: "userid is required",
  },
  401: {
    code: "unauthenticated",
    name: "Unauthenticated",
    description: "No API key, or one that is unknown or revoked",
    message: "A valid API key is required",
    headers: {
      "WWW-Authenticate": {
        description: "Always `Bearer`",
        schema: { type: "string", const: "Bearer" },
      },
    },
  },
  402: {
    code: "insufficient_balance",
    name: "InsufficientBalance",
    description: "Your balance does not cover the order; nothing was charged",
    message: "Insufficient balance in your account, please check.",
  },
  404: {
    code: "not_found",
    name: "NotFound",
    description: "No such game, item or order for your account",
    message: "Not found",
  },
  405: {
    code: "method_not_allowed",
    name: "MethodNotAllowed",
    description: "The path does not serve this method",
    message: "This method is not served at this path",
  },
  408: {
    code: "request_timeout",
    name: "RequestTimeout",
    description: "The request body did not arrive within the server's time limit",
    message: "The request body did not arrive in time",
  },
  409: {
    code: "conflict",
    name: "Conflict",
    description:
      "The request disagrees with the current state: the Idempotency-Key was used for a different order, the price or the Mobile Legends package changed, or the game is out of stock",
    message: "This Idempotency-Key was used for a different order",
  },
  413: {
    code: "payload_too_large",
    name: "PayloadTooLarge",
    description: "The request body is larger than 1 MiB",
    message: "Request body is too large",
  },
  415: {
    code: "unsupported_media_type",
    name: "UnsupportedMediaType",
    description:
      "The request has a body that is not declared `Content-Type: application/json`; nothing was done",
    message: "Request bodies must be JSON (Content-Type: application/json), not text/plain",
  },
  429: {
    code: "rate_limited",
    name: "RateLimited",
    description:
      `More than ${API_KEY_REQUESTS.max} requests with this key in ${API_KEY_REQUESTS.windowSeconds} seconds`,
    message: RATE_LIMITED_MESSAGE,
    headers: {
      "Retry-After": {
        description: "Seconds to wait before the next request",
        schema: { type: "integer", minimum: 1 },
      },
    },
  },
  500: {
    code: "internal_error",
    name: "InternalError",
    description: "Something failed on our side; the request may be repeated",
    message: "Something went wrong on our side. Please try again.",
  },
  502: {
    code: "upstream_error",
    name: "UpstreamError",
    description: "The game's supplier could not be asked or gave no usable answer",
    message: "Failed to verify ID: the supplier did not answer",
  },
};

/** Every operation can answer these; one with a body also 408, 413 and 415. */
const COMMON_ERRORS = [401, 405, 429, 500];
const BODY_ERRORS = [408, 413, 415];

const EXAMPLE_REQUEST_ID = "5f0c8a52-6d1e-4b7a-9c3f-2e8d1a4b6c90";

function errorSchema(code: V1ErrorCode): Record<string, unknown> {
  return jsonSchema(
    z.object({
      error: z.object({
        code: z.literal(code).describe("Stable: branch on this"),
        message: z.string().describe("For people: may change"),
        requestId: z.string().optional().describe(
          "The answer's X-Request-Id: quote it when you write to us",
        ),
      }),
    }),
    "output",
  );
}

function errorResponse(status: number, message?: string): Record<string, unknown> {
  const kind = ERRORS[status];
  return {
    description: kind.description,
    headers: { ...answerHeaders(!UNKEYED.has(status)), ...kind.headers },
    content: {
      "application/json": {
        schema: { $ref: `#/components/schemas/${kind.name}Error` },
        example: {
          error: {
            code: kind.code,
            message: message ?? kind.message,
            requestId: EXAMPLE_REQUEST_ID,
          },
        },
      },
    },
  };
}

function operationId(op: V1Operation): string {
  return op.method + op.path.replace("/api/v1", "").replace(/[{}]/g, "").split(/[/_]/)
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join("");
}

function parametersOf(op: V1Operation): unknown[] {
  const parameters: unknown[] = [];
  for (const [name, description] of Object.entries(op.pathParams ?? {})) {
    parameters.push({
      name,
      in: "path",
      required: true,
      description,
      schema: { type: "string", maxLength: 64 },
      example: "RMWW3JM4LD15UXR3D",
    });
  }
  if (op.query) {
    const schema = jsonSchema(op.query, "input") as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
    };
    for (const [name, prop] of Object.entries(schema.properties)) {
      const { description, ...rest } = prop;
      parameters.push({
        name,
        in: "query",
        required: schema.required?.includes(name) ?? false,
        description,
        schema: rest,
      });
    }
  }
  if (op.idempotent) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      description:
        `1 to 200 printable ASCII characters, new for each order (a UUID will do); a repeat returns the first answer, marked \`Idempotent-Replayed: true\`. A key is kept ${RETENTION.idempotencyKeyDays} days after its first use; after that it is forgotten and a repeat would place a new order.`,
      schema: { type: "string", minLength: 1, maxLength: 200, pattern: "^[\\x21-\\x7E]+$" },
      example: "9b2f6c1e-4d3a-4f5b-8c7d-1a2b3c4d5e6f",
    });
  }
  return parameters;
}

function pathItem(op: V1Operation): Record<string, unknown> {
  const statuses = [
    ...Object.keys(op.errors).map(Number),
    ...COMMON_ERRORS,
    ...(op.method === "get" ? [] : BODY_ERRORS),
  ].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {
    [String(op.success.status)]: {
      description: op.success.description,
      headers: {
        ...answerHeaders(true),
        ...(op.idempotent
          ? {
            "Idempotent-Replayed": {
              description:
                "`true` when this is the answer first given to the same Idempotency-Key (nothing new was ordered); absent on a new order",
              schema: { type: "string", const: "true" },
            },
          }
          : {}),
      },
      content: {
        "application/json": {
          schema: jsonSchema(op.success.schema, "output"),
          examples: op.success.examples,
        },
      },
    },
  };
  for (const status of statuses) {
    responses[String(status)] = errorResponse(status, op.errors[status as V1OperationError]);
  }
  const parameters = parametersOf(op);
  return {
    operationId: operationId(op),
    summary: op.summary,
    description: op.description,
    tags: [
      op.path.startsWith("/api/v1/webhook")
        ? "Webhook"
        : op.path.startsWith("/api/v1/balance")
        ? "Balance"
        : "Orders",
    ],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchema(op.body, "input") } },
        },
      }
      : {}),
    responses,
  };
}

/** The document served at GET /api/v1/openapi.json, for the site at `serverUrl` (PUBLIC_URL). */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of V1_OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = pathItem(op);
  }
  const schemas = {
    ...Object.fromEntries(
      Object.values(ERRORS).map((kind) => [`${kind.name}Error`, errorSchema(kind.code)]),
    ),
    ...Object.fromEntries([...NAMED_SCHEMAS].sort(([a], [b]) => a.localeCompare(b))),
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Reseller API",
      version: "1",
      description: [
        "Order top-ups from your own shop or bot with an API key from My Account, sent as `Authorization: Bearer tk_live_...`.",
        "Requests and answers are JSON. Every amount of money is a number of dollars with at most two decimal places (`12.5` is $12.50). Times are ISO 8601 in UTC.",
        'Every error answers `{ "error": { "code", "message" } }`: the code is stable, the message is for people.',
        "An order verifies the player's account with the game's supplier before anything is charged, for every game: verify first to show your buyer the player's name, then order.",
        "Request bodies are JSON, sent with `Content-Type: application/json` (415 otherwise). A field or query parameter the API does not know is refused with a 400 naming it, never ignored. Every path served by GET also answers HEAD: the same status and headers, no body.",
        `Every answer to a request with a valid key says where the key stands: \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds until the window ends) and \`RateLimit-Policy\`, the fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers), so a client slows down before it meets a 429 (whose \`Retry-After\` says how long to wait). A key may make ${API_KEY_REQUESTS.max} requests in ${API_KEY_REQUESTS.windowSeconds} seconds.`,
        `Every answer carries \`X-Request-Id\`, and every error body repeats it as \`error.requestId\`. Order creation takes an \`Idempotency-Key\`, kept ${RETENTION.idempotencyKeyDays} days; a repeat within them answers the first answer again with \`Idempotent-Replayed: true\`.`,
        [
          "## Changelog",
          "",
          "**2026-11-28**",
          "- `POST /api/v1/verify`: `result` names its shape in a new `shape` field (`mlbb`, `elitedias` or `moogold`), the discriminator of its `oneOf`; the Mobile Legends shape documents `userName`, which it always carried.",
          "- Request bodies must be `application/json` (415 otherwise); unknown body fields and query parameters are a 400 naming them (they were ignored); `from` after `to` on `GET /api/v1/orders` is a 400 (it answered an empty page).",
          "- `HEAD` is answered wherever `GET` is (it was a 405).",
          "- `RateLimit-*` headers on every keyed answer; `Idempotent-Replayed: true` on a replayed order; the Idempotency-Key's retention documented; `error.requestId` in every error body.",
        ].join("\n"),
      ].join("\n\n"),
      license: {
        name: "Proprietary: for this shop's resellers",
        url: `${serverUrl}/resellers/api`,
      },
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "Orders", description: "Games, verification and orders" },
      { name: "Balance", description: "Your balance and its movements" },
      { name: "Webhook", description: "Where order events are sent" },
    ],
    paths,
    components: {
      headers: HEADERS,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key (tk_live_...) from My Account → API keys",
        },
      },
      schemas,
    },
  };
}
