import type { APIRoute } from "astro";
import { requireAdmin } from "../../../../server/http.ts";
import { adminActor } from "../../../../domain/actor.ts";
import { NotFoundError } from "../../../../domain/errors.ts";
import { retryFailedJobAsOperator } from "../../../../domain/admin/failed-jobs.ts";

/** Admins give a failed job a fresh set of attempts, audited, like `cli jobs retry`. */
export const POST: APIRoute = async ({ locals, params }) => {
  const admin = requireAdmin(locals);
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError("No failed job has this id");
  await retryFailedJobAsOperator(locals.app.db, { id, actor: adminActor(admin) });
  return Response.json({ retried: id });
};
