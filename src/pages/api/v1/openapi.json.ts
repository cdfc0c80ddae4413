import type { APIRoute } from "astro";
import { publicOrigin } from "../../../config.ts";
import { buildOpenApiDocument } from "../../../server/openapi.ts";
import { headOf } from "../../../server/reseller-api.ts";

/** Public: the reseller API's OpenAPI 3.1 document, generated from its request schemas. */
export const GET: APIRoute = () => Response.json(buildOpenApiDocument(publicOrigin()));

export const HEAD = headOf(GET);
