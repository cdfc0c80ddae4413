import { balanceMoveRoute } from "../../../../server/balance-move.ts";

/** Admins deduct from a reseller's balance: an 'Account Deduction' row, never below zero. */
export const POST = balanceMoveRoute("deduct");
