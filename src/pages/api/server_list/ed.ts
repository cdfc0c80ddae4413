import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../../server/http.ts";
import { EdGameInput } from "../../../server/supplier-inputs.ts";
import { elitediasServers } from "../../../domain/catalogue/supplier-catalogue.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  requireAdmin(locals);
  const { game } = await readJson(request, EdGameInput);
  return Response.json(await elitediasServers(locals.app.suppliers(), game));
};
