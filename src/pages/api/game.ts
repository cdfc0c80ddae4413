import type { APIRoute } from "astro";
import { z } from "zod";
import { readJson, requireAdmin } from "../../server/http.ts";
import { createGame } from "../../domain/catalogue/games.ts";

const CreateGameInput = z.object({
  name: z.string().trim().min(1, "Game name is required").max(200),
});

export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const { name } = await readJson(request, CreateGameInput);
  return Response.json(await createGame(locals.app.db, name, admin), { status: 201 });
};
