import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { launchGame, LaunchGameSchema } from "../../domain/catalogue/launch.ts";

export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, LaunchGameSchema);
  const game = await launchGame(locals.app.db, locals.app.suppliers(), input, admin);
  return Response.json(game, { status: 201 });
};
