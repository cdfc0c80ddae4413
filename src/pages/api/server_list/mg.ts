import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { MgProductInput } from "../../../server/supplier-inputs.ts";
import { moogoldServers } from "../../../domain/catalogue/supplier-catalogue.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireAdmin(locals);
  const { productID } = await readJson(request, MgProductInput);
  return Response.json(await moogoldServers(locals.app.suppliers(), productID));
};
