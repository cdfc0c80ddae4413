// Admins top up and deduct a reseller's balance (spec §2 Resellers list popovers, §7
// POST /balance_topup|balance_deduct/reseller/{id}). One transaction holds the reseller's row lock,
// the balance change with its history row (through the ledger), the audit row and, with an
// Idempotency-Key, the answer kept for a repeat: a double-clicked Top Up credits once.
import type { Db } from "../../db/client.ts";
import { lockLiveReseller } from "../../db/repositories/resellers.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  saveIdempotentResponse,
} from "../../db/repositories/idempotency.ts";
import type { BalanceHistoryRow } from "../../db/schema.ts";
import type { BalanceMoveResult } from "../../shared/user-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { deductBalance, topUpBalance } from "../ledger/ledger.ts";
import {
  centsToDollars,
  centsToDollarString,
  type DecimalInput,
  dollarsToCents,
} from "../money.ts";

/** Refuses an operator's amount above the configured ceiling (BALANCE_MOVE_MAX, in dollars). */
export function checkMoveCeiling(cents: number, maxDollars: string, label = "amount"): void {
  const maxCents = dollarsToCents(maxDollars, "BALANCE_MOVE_MAX");
  if (cents > maxCents) {
    throw new ValidationError(`${label} must be at most ${centsToDollarString(maxCents)}`);
  }
}

/**
 * Reads an amount to top up or deduct: a decimal string or JSON number of dollars with at most
 * two decimals, more than zero and at most the ceiling; returns integer cents.
 */
export function parseMoveAmount(amount: DecimalInput, maxDollars: string): number {
  const cents = dollarsToCents(amount, "amount");
  if (cents <= 0) throw new ValidationError("amount must be more than 0");
  checkMoveCeiling(cents, maxDollars);
  return cents;
}

export interface BalanceMoveInput {
  resellerId: string;
  type: "top_up" | "deduct";
  amount: DecimalInput;
  actor: OperatorActor;
  /** The popover's Idempotency-Key: a repeat with the same key gets the first answer. */
  idempotencyKey?: string;
  /** BALANCE_MOVE_MAX. */
  maxDollars: string;
}

function present(resellerId: string, cents: number, row: BalanceHistoryRow): BalanceMoveResult {
  return {
    resellerId,
    type: row.type as BalanceMoveResult["type"],
    amount: centsToDollars(cents),
    oldBalance: centsToDollars(row.old_cents),
    newBalance: centsToDollars(row.new_cents),
    date: row.at.toISOString(),
  };
}

/**
 * Tops up or deducts a live reseller's balance with its 'top_up' or 'deduct' row naming the
 * operator, and the audit row. A deduction larger than the balance is refused (409) and changes
 * nothing; the balance never goes below zero.
 */
export async function moveBalance(db: Db, input: BalanceMoveInput): Promise<BalanceMoveResult> {
  const cents = parseMoveAmount(input.amount, input.maxDollars);
  const scope = `balance:${input.resellerId}`;
  const fingerprint = `${input.type}:${cents}`;
  return await db.transaction().execute(async (trx) => {
    if (input.idempotencyKey !== undefined) {
      const claim = { scope, key: input.idempotencyKey, fingerprint };
      if (!(await claimIdempotencyKey(trx, claim))) {
        const first = await findIdempotencyKey(trx, scope, input.idempotencyKey);
        if (first?.fingerprint !== fingerprint) {
          throw new ConflictError("This Idempotency-Key was already used for another amount");
        }
        // Parsed from the text first sent, its keys come back in the order they were written,
        // so the same answer serializes to the same bytes.
        return JSON.parse(first.response_body!) as BalanceMoveResult;
      }
    }
    const before = await lockLiveReseller(trx, input.resellerId);
    if (!before) throw new NotFoundError("Reseller not found");
    const row = input.type === "top_up"
      ? await topUpBalance(trx, before.id, cents, input.actor.name)
      : await deductBalance(trx, before.id, cents, input.actor.name);
    if (!row) {
      throw new ConflictError(
        `Cannot deduct ${centsToDollarString(cents)}: ${before.name}'s balance is only ${
          centsToDollarString(before.balance_cents)
        }`,
      );
    }
    await insertAudit(trx, {
      ...auditActor(input.actor),
      action: input.type === "top_up" ? "reseller.top_up" : "reseller.deduct",
      targetType: "reseller",
      targetId: before.id,
      before: { balanceCents: row.old_cents },
      after: { balanceCents: row.new_cents, amountCents: cents },
    });
    const result = present(before.id, cents, row);
    if (input.idempotencyKey !== undefined) {
      await saveIdempotentResponse(trx, scope, input.idempotencyKey, { status: 200, body: result });
    }
    return result;
  });
}
