import { balanceMoveRoute } from "../../../../server/balance-move.ts";

/** Admins top up a reseller's balance: an 'Account Top up' history row. */
export const POST = balanceMoveRoute("top_up");
