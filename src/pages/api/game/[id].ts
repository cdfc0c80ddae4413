import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "../../../server/http.ts";
import { deleteGame, saveGame } from "../../../domain/catalogue/games.ts";
import { GameSaveSchema } from "../../../domain/catalogue/game-schema.ts";

export const PUT: APIRoute = async ({ locals, request, params }) => {
  const admin = requireAdmin(locals);
  const id = uuidParam(params.id, "Game");
  const save = await readJson(request, GameSaveSchema);
  return Response.json(await saveGame(locals.app.db, id, save, admin));
};

export const DELETE: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  await deleteGame(locals.app.db, uuidParam(params.id, "Game"), admin);
  return Response.json({ ok: true });
};
