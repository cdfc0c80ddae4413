import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { adminActor } from "../../../domain/actor.ts";
import {
  readStorePolicies,
  saveStorePolicies,
  StorePoliciesSchema,
} from "../../../domain/catalogue/store-policies.ts";

/** Admins: the Terms, Privacy and Refund policies and the company details, as saved. */
export const GET: APIRoute = async ({ locals }) => {
  requireAdmin(locals);
  return Response.json(await readStorePolicies(locals.app.db));
};

/** Admins set them; the change is audited and the consumer pages show it on the next visit. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, StorePoliciesSchema);
  return Response.json(await saveStorePolicies(locals.app.db, input, adminActor(admin)));
};
