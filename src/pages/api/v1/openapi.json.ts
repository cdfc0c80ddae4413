import type { APIRoute } from "astro";
import { siteUrlOf } from "../../../server/http.ts";
import { buildOpenApiDocument } from "../../../server/openapi.ts";

/** Public: the reseller API's OpenAPI 3.1 document, generated from its request schemas. */
export const GET: APIRoute = ({ locals, url }) =>
  Response.json(buildOpenApiDocument(siteUrlOf(locals, url)));
