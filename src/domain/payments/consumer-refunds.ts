// Refunds of consumer orders' HitPay payments, exactly once. A paid order that ends without
// delivery (a definitive supplier failure, an operator's Refund in Needs review, a payment that
// came after the order expired or was cancelled) asks for its refund in the transaction that moved
// it to error: one row per order (the unique index decides between parallel askers) and a job.
// The job claims the row before HitPay is called, so two workers never both send; it reads the
// payment first, so a refund already made (its answer lost, or made by hand in HitPay's dashboard)
// is recorded rather than made twice; HitPay's answer is recorded after the call, in a second
// short transaction (RELIABILITY.md "refunds").

import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow, RefundRow } from "../../db/schema.ts";
import { findOrderById } from "../../db/repositories/orders.ts";
import {
  claimRefundToSend,
  findRefund,
  findRefundOfOrder,
  insertRefundOnce,
  recordRefundOutcome,
  type RefundOutcome,
} from "../../db/repositories/refunds.ts";
import {
  type HitPayClient,
  HitPayError,
  isHitPayRefusal,
  type PaymentRequestStatus,
  type Refund,
} from "../../integrations/hitpay/client.ts";
import { isSucceededPayment } from "../../integrations/hitpay/statuses.ts";
import { ConflictError } from "../errors.ts";
import { type JobKind, queueJob } from "../jobs.ts";
import { centsToDollarString } from "../money.ts";
import { move } from "../orders/lifecycle.ts";
import { sendRefundToReview } from "../orders/review.ts";
import { enqueueConsumerReceipt } from "./consumer-receipts.ts";

/** The job that asks HitPay for a refund and records its answer; payload `{ refundId, orderId }`. */
export const HITPAY_REFUND_JOB = "hitpay-refund";

/** Who asked for a refund the system asked for itself. */
export const SYSTEM = "system";

/** Why a refund was asked, in the words of the buyer's refund email. */
export const REFUND_REASONS = {
  failed: "We could not deliver this top-up to your account.",
  expired: "Your payment arrived after the time to pay for this order had run out.",
  cancelled: "Your payment arrived after this order had been cancelled.",
  operator: "Our team could not complete this order.",
} as const;

/** Who asks for a refund, and why (REFUND_REASONS). */
export interface RefundAsk {
  reason: string;
  /** SYSTEM, or the operator's name. */
  by: string;
}

/**
 * How long a refund request counts as out once sent: past the HitPay client's longest timeout
 * (SUPPLIER_TIMEOUT_MS is at most two minutes), so a job finding a claim this old knows its sender
 * died (or never heard back) and reads the payment.
 */
const SEND_LEASE_SECONDS = 180;

/** HitPay's word for a refund that went through (its OpenAPI example). */
const REFUND_SUCCEEDED = "succeeded";

/**
 * Words of a refund that will not happen. HitPay documents only `succeeded`; any other word not
 * listed here is taken as under way (its `pending`) and asked about again, until the job's last
 * attempt hands it to an operator.
 */
const REFUND_FAILED = new Set(["failed", "rejected", "canceled", "cancelled", "void"]);

/** Payment statuses after which nothing is left to give back: HitPay refunded (or voided) it. */
const NOTHING_LEFT = new Set(["refunded", "void"]);

/** Whether an order's payment can be refunded through HitPay (a bank transfer cannot). */
export function isRefundableThroughHitPay(order: OrderRow): boolean {
  return order.buyer_type === "consumer" && order.payment_provider === "hitpay";
}

/**
 * Asks for the refund of `order`'s whole payment in the caller's transaction (the one that moved
 * it to error): the refund row, unless the order has one already, and the job that sends it. A
 * second ask (a parallel admin Refund, a replayed event) adds nothing. Undefined for an order
 * whose payment is not HitPay's, or that had its refund asked already.
 */
export async function requestRefund(
  trx: Transaction<Database>,
  order: OrderRow,
  ask: RefundAsk,
): Promise<RefundRow | undefined> {
  if (!isRefundableThroughHitPay(order)) return undefined;
  const refund = await insertRefundOnce(trx, {
    orderId: order.id,
    paymentId: order.payment_id,
    amountCents: Number(order.amount_cents),
    reason: ask.reason,
    requestedBy: ask.by,
  });
  if (refund) await queueJob(trx, HITPAY_REFUND_JOB, { refundId: refund.id, orderId: order.id });
  return refund;
}

/**
 * An operator asks HitPay again for the refund of an order in error (Needs review's Refund): a
 * refused refund is asked again, one never asked is asked now, one under way gets a fresh job
 * (its claim keeps it from being sent twice). A refunded order cannot be refunded again.
 */
export async function askRefundAgain(
  trx: Transaction<Database>,
  order: OrderRow,
  ask: RefundAsk,
): Promise<void> {
  if (!isRefundableThroughHitPay(order)) {
    throw new ConflictError(`Order ${order.id} was not paid through HitPay`);
  }
  const refund = await findRefundOfOrder(trx, order.id);
  if (!refund) {
    await requestRefund(trx, order, ask);
    return;
  }
  if (refund.status === "succeeded") {
    throw new ConflictError(`Order ${order.id} is already refunded`);
  }
  if (refund.status === "refused") {
    await recordRefundOutcome(trx, refund.id, ["refused"], { status: "requested", error: null });
  }
  await queueJob(trx, HITPAY_REFUND_JOB, { refundId: refund.id, orderId: order.id });
}

/**
 * The refund succeeded (HitPay's answer, or its payment found refunded): the row, the order's move
 * error → refunded and the buyer's refund email, in one transaction. Nothing when the row had
 * moved on (another worker recorded it first).
 */
async function recordSucceeded(
  db: Db,
  refund: RefundRow,
  outcome: Omit<RefundOutcome, "status">,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const done = await recordRefundOutcome(
      trx,
      refund.id,
      ["requested", "sending", "pending"],
      { ...outcome, status: "succeeded", error: null },
    );
    if (!done) return;
    const order = await move(trx, refund.order_id, "consumer", "refunded");
    if (!order) return;
    await enqueueConsumerReceipt(trx, "refunded", order, {
      amountCents: Number(done.amount_cents),
      at: done.updated_at,
      reason: done.reason,
    });
  });
}

/** HitPay will not make the refund: the row says why, and the order waits for an operator. */
async function recordRefused(
  db: Db,
  refund: RefundRow,
  why: string,
  outcome: Omit<RefundOutcome, "status" | "error"> = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const done = await recordRefundOutcome(
      trx,
      refund.id,
      ["requested", "sending", "pending"],
      { ...outcome, status: "refused", error: why },
    );
    if (!done) return;
    await sendRefundToReview(
      trx,
      refund.order_id,
      `HitPay refused the refund of ${
        centsToDollarString(Number(refund.amount_cents))
      } SGD: ${why}`,
    );
  });
}

/** What HitPay's payment request says of the payment a refund is for. */
type PaymentFinding =
  | { kind: "refundable"; paymentId: string }
  | { kind: "done"; paymentId: string; status: string }
  | { kind: "refuse"; why: string };

/** Reads the order's payment off HitPay's status answer: still to refund, done, or a problem. */
function paymentFinding(
  request: PaymentRequestStatus,
  paymentId: string | null,
  amountCents: number,
): PaymentFinding {
  const payment = paymentId
    ? request.payments.find((p) => p.id === paymentId)
    : request.payments.find((p) => isSucceededPayment(p.status)) ??
      request.payments.find((p) => NOTHING_LEFT.has(p.status));
  if (!payment) return { kind: "refuse", why: "HitPay shows no such payment on the order" };
  if (NOTHING_LEFT.has(payment.status)) {
    return { kind: "done", paymentId: payment.id, status: payment.status };
  }
  if (!isSucceededPayment(payment.status)) {
    return { kind: "refuse", why: `HitPay shows the payment ${payment.status}` };
  }
  if (payment.amountCents !== amountCents) {
    return { kind: "refuse", why: "HitPay shows another amount for the payment" };
  }
  return { kind: "refundable", paymentId: payment.id };
}

/** A refund HitPay took and has not finished: asked about until it has. */
async function checkPending(db: Db, hitpay: HitPayClient, refund: RefundRow): Promise<boolean> {
  let answer: Refund;
  try {
    answer = await hitpay.getRefund(refund.hitpay_refund_id!);
  } catch (error) {
    if (isHitPayRefusal(error)) {
      await recordRefused(db, refund, error.hitpayMessage ?? error.message);
      return true;
    }
    if (error instanceof HitPayError) return false;
    throw error;
  }
  return await applyAnswer(db, refund, answer);
}

/** Records HitPay's refund answer; true when the refund is settled either way. */
async function applyAnswer(db: Db, refund: RefundRow, answer: Refund): Promise<boolean> {
  const outcome = { hitpayRefundId: answer.id, hitpayStatus: answer.status };
  if (answer.status === REFUND_SUCCEEDED) {
    await recordSucceeded(db, refund, outcome);
    return true;
  }
  if (REFUND_FAILED.has(answer.status)) {
    await recordRefused(db, refund, `HitPay reports the refund ${answer.status}`, outcome);
    return true;
  }
  await recordRefundOutcome(db, refund.id, ["sending", "pending"], {
    ...outcome,
    status: "pending",
  });
  return false;
}

/**
 * The refund job: true when the refund is settled (succeeded, or refused and handed to an
 * operator), false to be run again after the runner's backoff (HitPay gave no usable answer, the
 * refund is still under way at HitPay, or another worker's request is out).
 */
export async function runRefund(db: Db, hitpay: HitPayClient, refundId: number): Promise<boolean> {
  const refund = await findRefund(db, refundId);
  if (!refund || refund.status === "succeeded" || refund.status === "refused") return true;
  if (refund.status === "pending" && refund.hitpay_refund_id) {
    return await checkPending(db, hitpay, refund);
  }
  if (
    refund.status === "sending" && refund.sent_at &&
    refund.sent_at.getTime() > Date.now() - SEND_LEASE_SECONDS * 1000
  ) {
    return false;
  }
  const order = await findOrderById(db, refund.order_id);
  if (!order?.payment_reference) {
    await recordRefused(db, refund, "the order has no HitPay payment request");
    return true;
  }
  // Before anything is sent: HitPay's word on the payment. A refund whose answer was lost, or
  // one made in HitPay's dashboard, shows there as a refunded payment, and is not made again.
  let finding: PaymentFinding;
  try {
    const request = await hitpay.getPaymentRequest(order.payment_reference);
    finding = paymentFinding(
      request,
      refund.payment_id ?? order.payment_id,
      Number(refund.amount_cents),
    );
  } catch (error) {
    if (error instanceof HitPayError) return false;
    throw error;
  }
  if (finding.kind === "refuse") {
    await recordRefused(db, refund, finding.why);
    return true;
  }
  if (finding.kind === "done") {
    await recordSucceeded(db, refund, {
      paymentId: finding.paymentId,
      hitpayStatus: `payment ${finding.status}`,
    });
    return true;
  }
  const claimed = await claimRefundToSend(db, refund, finding.paymentId, SEND_LEASE_SECONDS);
  // Claimed by another worker since it was read: that one sends; this job looks again later.
  if (!claimed) return false;
  let answer: Refund;
  try {
    answer = await hitpay.createRefund({
      paymentId: finding.paymentId,
      amountCents: Number(claimed.amount_cents),
    });
  } catch (error) {
    if (isHitPayRefusal(error)) {
      await recordRefused(db, claimed, error.hitpayMessage ?? error.message);
      return true;
    }
    if (!(error instanceof HitPayError)) throw error;
    // No usable answer: HitPay may have made the refund. Back to requested, so the next attempt
    // reads the payment before it sends anything again.
    await recordRefundOutcome(
      db,
      claimed.id,
      ["sending"],
      { status: "requested", error: error.message },
      claimed.sends,
    );
    return false;
  }
  return await applyAnswer(db, claimed, answer);
}

/**
 * The refund job's kind: a refund whose job used its last attempt (HitPay never answered, or the
 * refund stayed under way) goes to Needs review.
 */
export function refundJobHandlers(db: Db, hitpay: () => HitPayClient): Record<string, JobKind> {
  return {
    [HITPAY_REFUND_JOB]: {
      run: (payload) => runRefund(db, hitpay(), Number(payload.refundId)),
      exhausted: async (payload, lastError) => {
        const refund = await findRefund(db, Number(payload.refundId));
        if (!refund || refund.status === "succeeded" || refund.status === "refused") return;
        await db.transaction().execute((trx) =>
          sendRefundToReview(
            trx,
            refund.order_id,
            `HitPay gave no usable answer to the refund after every attempt (last: ${lastError}).`,
          )
        );
      },
    },
  };
}
