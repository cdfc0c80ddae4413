import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { adminActor } from "../../../domain/actor.ts";
import {
  AlertSettingsSchema,
  readAlertSettings,
  saveAlertSettings,
} from "../../../domain/operations/alert-settings.ts";

/** Admins: the alert thresholds (supplier balances, job backlog, failing webhooks). */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await readAlertSettings(locals.app.db));
};

/** Admins set the alert thresholds; the change is audited. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, AlertSettingsSchema);
  return Response.json(await saveAlertSettings(locals.app.db, input, adminActor(admin)));
};
