// The OpenAPI 3.1 document of /api/v1 (issue 11), generated from the zod schemas that validate the
// requests (server/reseller-api-inputs.ts): nothing here is written by hand but the prose.
import { z } from "zod";
import { V1_OPERATIONS } from "./reseller-api-inputs.ts";
import { V1_ERROR_CODES } from "./reseller-api.ts";

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return rest;
}

const ERROR_RESPONSE = { $ref: "#/components/responses/Error" };

/** The document served at GET /api/v1/openapi.json. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of V1_OPERATIONS) {
    const parameters: unknown[] = [];
    for (const [name, description] of Object.entries(op.pathParams ?? {})) {
      parameters.push({
        name,
        in: "path",
        required: true,
        description,
        schema: { type: "string" },
      });
    }
    if (op.query) {
      const schema = jsonSchema(op.query) as {
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
        description: "1 to 200 printable characters; a repeat returns the first answer",
        schema: { type: "string", minLength: 1, maxLength: 200 },
      });
    }
    const responses: Record<string, unknown> = {
      [String(op.success.status)]: {
        description: op.success.description,
        content: { "application/json": { schema: { type: "object" } } },
      },
      "400": ERROR_RESPONSE,
      "401": ERROR_RESPONSE,
      "429": ERROR_RESPONSE,
    };
    if (op.pathParams) responses["404"] = ERROR_RESPONSE;
    if (op.errors?.includes("insufficient_balance")) responses["402"] = ERROR_RESPONSE;
    if (op.errors?.includes("conflict")) responses["409"] = ERROR_RESPONSE;
    if (op.errors?.includes("upstream_error")) responses["502"] = ERROR_RESPONSE;
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: `${op.method}${
        op.path.replace("/api/v1", "").replace(/[{}]/g, "").split("/").map((s) =>
          s.charAt(0).toUpperCase() + s.slice(1)
        ).join("")
      }`,
      summary: op.summary,
      description: op.description,
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(op.body) } },
          },
        }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Reseller API",
      version: "1",
      description:
        "Order top-ups from your own shop or bot with an API key from My Account. Every error answers { error: { code, message } }.",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key (tk_live_...)" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", enum: [...V1_ERROR_CODES] },
                message: { type: "string" },
              },
            },
          },
        },
      },
      responses: {
        Error: {
          description: "An error, with a stable code",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    },
  };
}

/** One field of a body or query, as the reference page lists it. */
export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** The fields of an object schema, from the same JSON Schema the document carries. */
export function describeFields(schema: z.ZodType): FieldDoc[] {
  const json = jsonSchema(schema) as {
    properties?: Record<
      string,
      { type?: string | string[]; enum?: unknown[]; description?: string }
    >;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.enum ? p.enum.join(" | ") : [p.type ?? "any"].flat().join(" | "),
    required: json.required?.includes(name) ?? false,
    description: p.description ?? "",
  }));
}
