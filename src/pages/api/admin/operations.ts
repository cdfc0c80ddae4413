import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { operationsStatus } from "../../../domain/operations/status.ts";
import { checkReadiness } from "../../../domain/operations/readiness.ts";

/**
 * Admins: the operations view (job queue per kind, Needs review, failed jobs, supplier balances,
 * recent alerts) and this server's readiness as /readyz sees it, the same as `cli status --json`.
 */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  const { db, config } = locals.app;
  const readiness = await checkReadiness(db, { runJobs: config.runJobs });
  return Response.json(await operationsStatus(db, { readiness }));
};
