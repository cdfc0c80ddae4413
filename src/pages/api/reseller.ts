import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { ResellerCreateInput } from "../../server/reseller-inputs.ts";
import { addReseller } from "../../domain/resellers/accounts.ts";
import { adminActor } from "../../domain/actor.ts";

/** Admins create a reseller with its starting balance and markups (spec §7 POST /reseller). */
export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, ResellerCreateInput);
  const { config } = locals.app;
  const created = await addReseller(locals.app.db, input, adminActor(admin), {
    maxMoveDollars: config.balanceMoveMax,
    twoFAEnabled: config.reseller2faDefault,
  });
  return Response.json(created, { status: 201 });
};
