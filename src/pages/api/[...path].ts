import type { APIRoute } from "astro";
import { NotFoundError } from "../../domain/errors.ts";
import { errorResponse } from "../../server/http.ts";

/** An /api path that no route serves answers JSON like every other API error, not an HTML page. */
export const ALL: APIRoute = () => errorResponse(new NotFoundError("Not found"));
