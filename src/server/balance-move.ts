import type { APIRoute } from "astro";
import { readJson, requireAdmin, uuidParam } from "./http.ts";
import { BalanceMoveInput } from "./reseller-inputs.ts";
import { idempotencyKeyOf } from "./order-inputs.ts";
import { moveBalance } from "../domain/resellers/balance.ts";
import { adminActor } from "../domain/actor.ts";

/**
 * POST /api/balance_topup|balance_deduct/reseller/{id} (spec §7): an admin moves a balance with
 * its history row; a deduction beyond the balance is refused (409) and changes nothing. A repeat
 * with the same Idempotency-Key gets the first answer.
 */
export function balanceMoveRoute(type: "top_up" | "deduct"): APIRoute {
  return async ({ locals, request, params }) => {
    const admin = requireAdmin(locals);
    const resellerId = uuidParam(params.id, "Reseller");
    const idempotencyKey = idempotencyKeyOf(request);
    const { amount } = await readJson(request, BalanceMoveInput);
    return Response.json(
      await moveBalance(locals.app.db, {
        resellerId,
        type,
        amount,
        actor: adminActor(admin),
        idempotencyKey,
        maxDollars: locals.app.config.balanceMoveMax,
      }),
    );
  };
}
