import type { APIRoute } from "astro";
import { NotFoundError } from "../../../domain/errors.ts";
import { v1ErrorResponse } from "../../../server/reseller-api.ts";

/** A /api/v1 path no route serves answers in the reseller API's error shape. */
export const ALL: APIRoute = () => v1ErrorResponse(new NotFoundError("Not found"));
