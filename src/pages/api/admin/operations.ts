import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { operationsStatus } from "../../../domain/operations/status.ts";

/**
 * Admins: the operations view (job queue per kind, Needs review, failed jobs, supplier balances,
 * recent alerts), the same as `cli status --json`. Its `readiness` is the readiness probe's answer
 * once the health endpoints pass it in (`operationsStatus(db, { readiness })`); null until then.
 */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await operationsStatus(locals.app.db));
};
