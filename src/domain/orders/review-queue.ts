// Admin → Orders → Needs review (review.ts says how orders get there), for the console and the
// CLI: the queue with each order's supplier attempts, and an operator's decisions: mark it
// delivered with the supplier's order id, refund it, or send it again. Each decision is one
// transaction with its audit row and acts only on an order still in the queue, so two admins
// deciding at once cannot both apply.

import type { Db } from "../../db/client.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { queueJob } from "../jobs.ts";
import { findOrderById, listOrdersInReview, lockOrderById } from "../../db/repositories/orders.ts";
import {
  closeOpenSupplierAttempt,
  listSupplierAttempts,
} from "../../db/repositories/supplier-attempts.ts";
import type { OrderRow, RefundRow, SupplierAttemptRow } from "../../db/schema.ts";
import { listRefundsOfOrders } from "../../db/repositories/refunds.ts";
import type { ReviewAction, ReviewOrderDto } from "../../shared/order-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { kickJobs } from "../jobs.ts";
import { deliverConsumerOrderIn, failConsumerOrder } from "../payments/consumer-fulfilment.ts";
import { markResellerOrderSuccessfulIn, refundResellerOrderIn } from "./fulfil.ts";
import { presentAdminOrder } from "./admin-orders.ts";
import { SUPPLIER_CREATE_JOB } from "./place.ts";
import { FAILED, resolveReviewFlag, REVIEWABLE_STATES } from "./lifecycle.ts";
import {
  askRefundAgain,
  HITPAY_REFUND_JOB,
  isRefundableThroughHitPay,
  REFUND_REASONS,
} from "../payments/consumer-refunds.ts";

/** The most orders the queue lists at once. */
const REVIEW_LIST_LIMIT = 200;

function presentAttempt(row: SupplierAttemptRow) {
  return {
    at: row.started_at.toISOString(),
    outcome: row.outcome ?? "no answer yet",
    answer: row.answer ?? "",
  };
}

/** Present one order of the queue with its create attempts, oldest first, and its refund. */
function presentReviewOrder(
  order: OrderRow,
  attempts: SupplierAttemptRow[],
  refund: RefundRow | undefined,
): ReviewOrderDto {
  return {
    ...presentAdminOrder(order, refund),
    supplier: order.supplier,
    reviewSince: order.review_since!.toISOString(),
    reviewReason: order.review_reason ?? "",
    attempts: attempts.map(presentAttempt),
  };
}

/** Admin → Orders → Needs review: the orders waiting for an operator, longest waiting first. */
export async function listReviewQueue(db: Db): Promise<ReviewOrderDto[]> {
  const orders = await listOrdersInReview(db, REVIEWABLE_STATES, REVIEW_LIST_LIMIT);
  const attempts = await listSupplierAttempts(db, orders.map((o) => o.id));
  const refunds = await listRefundsOfOrders(db, orders.map((o) => o.id));
  return orders.map((order) =>
    presentReviewOrder(
      order,
      attempts.filter((a) => a.order_id === order.id),
      refunds.find((r) => r.order_id === order.id),
    )
  );
}

/** What an admin sends to resolve an order in review. */
export interface ReviewDecision {
  orderId: string;
  action: ReviewAction;
  /** The supplier's order id, required to mark it delivered. */
  supplierOrderId?: string;
  actor: OperatorActor;
}

function inReview(order: OrderRow): boolean {
  return order.review_since !== null &&
    REVIEWABLE_STATES.includes(order.status);
}

/**
 * Resolves an order in Needs review, audited: `delivered` records the supplier's order id and
 * delivers it (webhook event or receipt), `refund` gives a reseller its money back once (a
 * consumer's order moves to error and HitPay is asked for the refund of its payment, once; a
 * consumer order already in error, its refund refused, has HitPay asked again), `resend` closes
 * the unknown attempt as not at the supplier and queues one new create. Returns the order after.
 */
export async function resolveReview(db: Db, decision: ReviewDecision): Promise<OrderRow> {
  const supplierOrderId = decision.supplierOrderId?.trim() ?? "";
  if (decision.action === "delivered" && !/^[\w.:-]{1,100}$/.test(supplierOrderId)) {
    throw new ValidationError("Enter the supplier's order id (letters, digits, . : _ -)");
  }
  const after = await db.transaction().execute(async (trx) => {
    // Locked: two admins deciding at once are applied one after the other, and the second finds
    // the order out of the queue.
    const before = await lockOrderById(trx, decision.orderId);
    if (!before) throw new NotFoundError("Order not found");
    if (!inReview(before)) {
      throw new ConflictError(`Order ${before.id} is not waiting for review`);
    }
    const by = `${decision.actor.name} (${decision.actor.type})`;
    const reseller = before.buyer_type === "reseller";
    if (!reseller && before.status === FAILED && decision.action !== "refund") {
      throw new ConflictError(
        `Order ${before.id} already failed and waits for its refund: it cannot be ` +
          (decision.action === "delivered" ? "marked delivered" : "sent again") +
          "; refund it",
      );
    }
    let outcome: string;
    if (decision.action === "delivered") {
      const done = reseller
        ? await markResellerOrderSuccessfulIn(trx, before.id, undefined, supplierOrderId)
        : await deliverConsumerOrderIn(trx, before.id, supplierOrderId);
      if (!done) throw new ConflictError(`Order ${before.id} moved on meanwhile`);
      outcome = "delivered (operator)";
    } else if (decision.action === "refund") {
      const reason = `Refunded by ${by} after review`;
      const ask = { reason: REFUND_REASONS.operator, by: decision.actor.name };
      if (reseller) await refundResellerOrderIn(trx, before.id, reason, decision.actor.name);
      else if (before.status === FAILED) {
        await resolveReviewFlag(trx, before.id);
        await askRefundAgain(trx, before, ask);
      } else {
        await failConsumerOrder(
          trx,
          before.id,
          isRefundableThroughHitPay(before)
            ? `${reason}: the payment is refunded through HitPay`
            : `${reason}: return the bank transfer to the customer`,
          ask,
        );
      }
      outcome = "refunded (operator)";
    } else {
      await resolveReviewFlag(trx, before.id);
      await queueJob(trx, SUPPLIER_CREATE_JOB, { orderId: before.id });
      outcome = "not at supplier (operator)";
    }
    await closeOpenSupplierAttempt(trx, before.id, outcome, `decided by ${by}`);
    const after = await findOrderById(trx, before.id);
    await insertAudit(trx, {
      ...auditActor(decision.actor),
      action: `order.review_${decision.action}`,
      targetType: "order",
      targetId: before.id,
      before: { status: before.status, reviewReason: before.review_reason },
      after: {
        status: after?.status,
        supplierOrderId: after?.supplier_order_id ?? null,
      },
    });
    return after!;
  });
  if (decision.action === "resend") kickJobs(SUPPLIER_CREATE_JOB);
  if (decision.action === "refund") kickJobs(HITPAY_REFUND_JOB);
  return after;
}
