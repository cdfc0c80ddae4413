// The refunds of consumer orders' HitPay payments (migration 0023): at most one per order, and a
// refund request goes out to HitPay only from a row a job claimed with one conditional update.

import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database, RefundRow } from "../schema.ts";

type Handle = Db | Transaction<Database>;

/** What asking for an order's refund stores. */
export interface NewRefund {
  orderId: string;
  paymentId: string | null;
  amountCents: number;
  reason: string;
  requestedBy: string;
}

/**
 * Inserts the order's refund unless it has one (the unique index on order_id decides, so parallel
 * askers store one row): the row inserted, or undefined when one existed.
 */
export async function insertRefundOnce(
  trx: Handle,
  refund: NewRefund,
): Promise<RefundRow | undefined> {
  return await trx.insertInto("refunds")
    .values({
      order_id: refund.orderId,
      payment_id: refund.paymentId,
      amount_cents: refund.amountCents,
      reason: refund.reason.slice(0, 1000),
      requested_by: refund.requestedBy.slice(0, 200),
    })
    .onConflict((c) => c.column("order_id").doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findRefund(db: Handle, id: number): Promise<RefundRow | undefined> {
  return await db.selectFrom("refunds").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findRefundOfOrder(
  db: Handle,
  orderId: string,
): Promise<RefundRow | undefined> {
  return await db.selectFrom("refunds").selectAll().where("order_id", "=", orderId)
    .executeTakeFirst();
}

/** The refunds of `orderIds` (an admin list's page). */
export async function listRefundsOfOrders(db: Handle, orderIds: string[]): Promise<RefundRow[]> {
  if (!orderIds.length) return [];
  return await db.selectFrom("refunds").selectAll().where("order_id", "in", orderIds).execute();
}

/**
 * Claims a refund to send it to HitPay: one conditional update, from `requested`, or from a
 * `sending` whose request went out more than `leaseSeconds` ago (its worker died or its answer
 * never came), and only if nobody claimed it since it was read (`sends`). Two workers never both
 * send: the second finds the row moved on. The claimed row, or undefined.
 */
export async function claimRefundToSend(
  db: Handle,
  refund: Pick<RefundRow, "id" | "sends">,
  paymentId: string,
  leaseSeconds: number,
): Promise<RefundRow | undefined> {
  return await db.updateTable("refunds")
    .set({
      status: "sending",
      payment_id: paymentId,
      sends: sql`sends + 1`,
      sent_at: new Date(),
      updated_at: new Date(),
    })
    .where("id", "=", refund.id)
    .where("sends", "=", refund.sends)
    .where((eb) =>
      eb.or([
        eb("status", "=", "requested"),
        eb.and([
          eb("status", "=", "sending"),
          eb("sent_at", "<", new Date(Date.now() - leaseSeconds * 1000)),
        ]),
      ])
    )
    .returningAll()
    .executeTakeFirst();
}

/** What an answer (or a finding) records on a refund. */
export interface RefundOutcome {
  status: "requested" | "pending" | "succeeded" | "refused";
  hitpayRefundId?: string | null;
  hitpayStatus?: string | null;
  error?: string | null;
  paymentId?: string;
}

/**
 * Records an outcome on a refund still in one of `from` (and, with `sends`, still the claim that
 * sent it): the row, or undefined when it moved on meanwhile.
 */
export async function recordRefundOutcome(
  db: Handle,
  id: number,
  from: readonly RefundRow["status"][],
  outcome: RefundOutcome,
  sends?: number,
): Promise<RefundRow | undefined> {
  let query = db.updateTable("refunds")
    .set({
      status: outcome.status,
      ...(outcome.hitpayRefundId === undefined ? {} : { hitpay_refund_id: outcome.hitpayRefundId }),
      ...(outcome.hitpayStatus === undefined ? {} : { hitpay_status: outcome.hitpayStatus }),
      ...(outcome.error === undefined ? {} : { error: outcome.error?.slice(0, 1000) ?? null }),
      ...(outcome.paymentId === undefined ? {} : { payment_id: outcome.paymentId }),
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .where("status", "in", [...from]);
  if (sends !== undefined) query = query.where("sends", "=", sends);
  return await query.returningAll().executeTakeFirst();
}
