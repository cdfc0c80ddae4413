import type { APIRoute } from "astro";
import { requireAdmin } from "../../../server/http.ts";
import { listRetryableFailedJobs } from "../../../domain/admin/failed-jobs.ts";

/** Admins: the jobs that used their last attempt (mail, webhooks), latest first. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json({ jobs: await listRetryableFailedJobs(locals.app.db) });
};
