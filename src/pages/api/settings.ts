import type { APIRoute } from "astro";
import { readJson, requireAdmin, requireReseller } from "../../server/http.ts";
import {
  FxSettingsSchema,
  readFxSettings,
  saveFxSettings,
} from "../../domain/catalogue/exchange-rate.ts";

/** The settings a signed-in user needs: fxRateMarkUp, for admins and resellers alike. */
export const GET: APIRoute = async ({ locals }) => {
  if (locals.session?.userType === "admin") requireAdmin(locals);
  else requireReseller(locals);
  return Response.json(await readFxSettings(locals.app.db));
};

/** Admins set fxRateMarkUp (SGD cents per 1 USD); the change is audited. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, FxSettingsSchema);
  const saved = await saveFxSettings(locals.app.db, input, { id: admin._id, name: admin.name });
  return Response.json(saved);
};
