import type { APIRoute } from "astro";
import { requireAdmin, requireReseller } from "../../../server/http.ts";
import { getUsdSgdRates, quoteUsdSgd } from "../../../domain/catalogue/exchange-rate.ts";

/** The rate shown to resellers; admins may read it too. Yahoo failing with no usable copy: 502. */
export const GET: APIRoute = async ({ locals }) => {
  if (locals.session?.userType === "admin") requireAdmin(locals);
  else requireReseller(locals);
  const { config, db } = locals.app;
  return Response.json(await quoteUsdSgd(db, getUsdSgdRates(config, db)));
};
