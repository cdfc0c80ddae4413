import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { DashboardExclusionsInput } from "../../../server/dashboard-inputs.ts";
import { saveDashboardExclusions } from "../../../domain/admin/dashboard.ts";
import { adminActor } from "../../../domain/actor.ts";

/** Admins set the accounts and names the dashboard leaves out (spec §6); the change is audited. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, DashboardExclusionsInput);
  const saved = await saveDashboardExclusions(locals.app.db, input, adminActor(admin));
  return Response.json(saved);
};
