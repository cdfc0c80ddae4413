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

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return rest;
}

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

/** Every operation can answer these; one with a body also 408 and 413. */
const COMMON_ERRORS = [401, 405, 429, 500];
const BODY_ERRORS = [408, 413];

function errorSchema(code: V1ErrorCode): Record<string, unknown> {
  return jsonSchema(
    z.object({
      error: z.object({
        code: z.literal(code).describe("Stable: branch on this"),
        message: z.string().describe("For people: may change"),
      }),
    }),
    "output",
  );
}

function errorResponse(status: number, message?: string): Record<string, unknown> {
  const kind = ERRORS[status];
  return {
    description: kind.description,
    ...(kind.headers ? { headers: kind.headers } : {}),
    content: {
      "application/json": {
        schema: { $ref: `#/components/schemas/${kind.name}Error` },
        example: { error: { code: kind.code, message: message ?? kind.message } },
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
        "1 to 200 printable ASCII characters, new for each order (a UUID will do); a repeat returns the first answer",
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
  const schemas = Object.fromEntries(
    Object.values(ERRORS).map((kind) => [`${kind.name}Error`, errorSchema(kind.code)]),
  );
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
