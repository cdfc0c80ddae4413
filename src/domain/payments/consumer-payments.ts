// Consumer payments after the order exists: HitPay's word (webhook or status query) or an admin's
// confirmation moves an order from awaiting payment to payment received, with the supplier job in
// the same transaction. Every path calls markConsumerOrderPaid, the one transition.

import { createHash } from "node:crypto";
import { auditActor, type OperatorActor } from "../actor.ts";
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database, OrderRow } from "../../db/schema.ts";
import { queueJob } from "../jobs.ts";
import { findOrderById, listConsumerOrdersInStatus } from "../../db/repositories/orders.ts";
import {
  insertPaymentEventOnce,
  setPaymentEventOutcome,
} from "../../db/repositories/payment-events.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import {
  type HitPayClient,
  HitPayError,
  type PaymentRequestStatus,
} from "../../integrations/hitpay/client.ts";
import {
  HITPAY_SIGNATURE_HEADER,
  type HitPayUnhandledEvent,
  verifyHitPayWebhook,
} from "../../integrations/hitpay/webhook.ts";
import {
  findPaidPayment,
  findTakenBackPayment,
  HITPAY_PAID,
  isEndedUnpaid,
} from "../../integrations/hitpay/statuses.ts";
import { ConflictError, NotFoundError, UnauthenticatedError } from "../errors.ts";
import { SUPPLIER_CREATE_JOB } from "../orders/place.ts";
import { PAYMENT_CHECK_PER_ORDER, takeRateLimit } from "../auth/rate-limit.ts";
import { forEachConcurrently } from "../concurrency.ts";
import { move } from "../orders/lifecycle.ts";
import { countConsumerPayment, countHitPayWebhook } from "../../observability/metrics.ts";
import { putSetting } from "../../db/repositories/settings.ts";
import { logger } from "../../observability/log.ts";
import { enqueueConsumerReceipt } from "./consumer-receipts.ts";
import { readBankTransferDetails } from "./bank-transfer.ts";
import type { BankTransferDetails } from "../../shared/consumer-storefront.ts";
import {
  AWAITING_PAYMENT,
  PAYMENT_CANCELLED,
  PAYMENT_EXPIRED,
  paymentEffect,
  type PaymentReport,
  UNPAID_STATES,
} from "./consumer-states.ts";
import { REFUND_REASONS, requestRefund, SYSTEM } from "./consumer-refunds.ts";

/** The status poll's answer (spec §7 `status`, plus the transfer account of a manual order). */
export interface ConsumerOrderStatus {
  status: string;
  bankTransfer?: BankTransferDetails;
}

export const HITPAY = "hitpay";
export const MANUAL = "manual";

/** The outcome stored on the payment event that paid its order. */
export const PAID_OUTCOME = "paid";
/** The audit action of an admin confirming a manual payment. */
export const MANUAL_PAYMENT_CONFIRMED = "order.confirm_manual_payment";

/**
 * The one way a consumer order becomes paid: awaiting payment (or a HitPay payment that failed or
 * was cancelled, whose request may still complete) → payment received in one conditional update,
 * recording HitPay's `paymentId` when known, and in the same transaction the job that sends it to
 * the supplier and the "paid" receipt.
 * Returns the order, or undefined when it was not payable (already paid, expired, cancelled).
 */
export async function markConsumerOrderPaid(
  trx: Transaction<Database>,
  orderId: string,
  paymentId?: string,
): Promise<OrderRow | undefined> {
  const order = await move(trx, orderId, "consumer", "paid", { lastError: null, paymentId });
  if (!order) return undefined;
  await queueJob(trx, SUPPLIER_CREATE_JOB, { orderId });
  await enqueueConsumerReceipt(trx, "paid", order);
  return order;
}

/**
 * What a payment report did: stored and applied, a replay, refused, about a payment that is not
 * one of our orders', or to be sent again later.
 */
export type PaymentReportResult =
  | { kind: "applied"; outcome: string }
  | { kind: "duplicate" }
  | { kind: "refused"; reason: string }
  | { kind: "foreign" }
  | { kind: "retry" };

/** What a HitPay webhook did: a payment report's result, or a signed event stored and ignored. */
export type HitPayWebhookResult = PaymentReportResult | { kind: "ignored"; outcome: string };

/**
 * Stores a verified payment report once (key: payment id + status) and applies it to the order
 * named by its reference, in one transaction: a replay finds the key taken and changes nothing.
 * A report about a payment that is not one of our orders', or one that does not match its
 * order's payment request, amount or currency, is kept as evidence under a key of its own, so it
 * never takes the key a genuine report of that payment needs, and changes nothing.
 */
export async function applyPaymentReport(
  db: Db,
  input: {
    report: PaymentReport;
    referenceNumber: string;
    eventKey: string;
    rawBody: string;
  },
): Promise<PaymentReportResult> {
  const { report, referenceNumber } = input;
  const result = await db.transaction().execute(async (trx): Promise<PaymentReportResult> => {
    const order = referenceNumber ? await findOrderById(trx, referenceNumber) : undefined;
    const effect = paymentEffect(order, report);
    // Not stored: the provider retries, and by then the order knows its payment request.
    if (effect.kind === "retry") return { kind: "retry" };
    if (effect.kind === "foreign" || effect.kind === "refuse") {
      const digest = createHash("sha256").update(input.rawBody, "utf8").digest("hex");
      const eventId = await insertPaymentEventOnce(trx, {
        provider: report.provider,
        eventKey: `${effect.kind}:${input.eventKey}:${digest}`,
        rawBody: input.rawBody,
      });
      if (effect.kind === "foreign") {
        if (eventId === undefined) return { kind: "duplicate" };
        await setPaymentEventOutcome(trx, eventId, null, "ignored: not an order of this shop");
        return { kind: "foreign" };
      }
      if (eventId !== undefined) {
        await setPaymentEventOutcome(trx, eventId, order?.id ?? null, `refused: ${effect.reason}`);
      }
      return { kind: "refused", reason: effect.reason };
    }
    const eventId = await insertPaymentEventOnce(trx, {
      provider: report.provider,
      eventKey: input.eventKey,
      rawBody: input.rawBody,
    });
    if (eventId === undefined) return { kind: "duplicate" };
    let outcome = effect.kind === "record"
      ? effect.reason
      : effect.kind === "pay"
      ? PAID_OUTCOME
      : "";
    if (
      effect.kind === "pay" && !await markConsumerOrderPaid(trx, referenceNumber, report.paymentId)
    ) {
      outcome = "already moved on";
    }
    if (effect.kind === "late") {
      outcome = await applyLatePayment(trx, order!, effect.reason, report.paymentId);
    }
    if (effect.kind === "unpaid") {
      const moved = await move(trx, referenceNumber, "consumer", "paymentEndedUnpaid", {
        to: effect.status,
        lastError: `HitPay: payment ${report.status}`,
      });
      outcome = moved ? effect.status : "already moved on";
    }
    await setPaymentEventOutcome(trx, eventId, order?.id ?? null, outcome);
    return { kind: "applied", outcome };
  });
  if (result.kind === "foreign") {
    logger().info({
      msg: "payment event for no order of ours",
      provider: report.provider,
      reference: referenceNumber,
    });
  }
  countConsumerPayment(
    result.kind !== "applied" ? result.kind : result.outcome === PAID_OUTCOME ? "paid" : "recorded",
  );
  return result;
}

/**
 * The outcome a late payment's event is stored with: it is the order's one verified payment (the
 * invariants count it as such), though it paid for nothing delivered.
 */
export const PAID_TOO_LATE = "paid too late";

/**
 * A payment that completed after the shop expired or cancelled the order: the order moves to error
 * with the payment recorded and the reason shown, and its refund is asked in the same transaction.
 * It is never sent to a supplier. The event's outcome.
 */
async function applyLatePayment(
  trx: Transaction<Database>,
  order: OrderRow,
  reason: string,
  paymentId: string | undefined,
): Promise<string> {
  const moved = await move(trx, order.id, "consumer", "paidTooLate", {
    from: [order.status],
    lastError: reason,
    paymentId,
  });
  if (!moved) return "already moved on";
  await requestRefund(trx, moved, {
    reason: order.status === PAYMENT_EXPIRED ? REFUND_REASONS.expired : REFUND_REASONS.cancelled,
    by: SYSTEM,
  });
  return PAID_TOO_LATE;
}

/**
 * The key a HitPay payment report is stored under: one per payment and status, so a replay finds
 * it taken. The status is in the payment request's words: the reconciliation reports a payment
 * HitPay lists as `succeeded` with HITPAY_PAID ("completed"), the word the v1 webhook for that
 * same payment carries, so whichever of the two comes second is a replay of the first.
 */
function hitPayEventKey(paymentId: string, status: string): string {
  return `${paymentId}:${status}`;
}

/**
 * Stores a signed HitPay event the shop does not act on (a charge, a payout, …) once, with what
 * was made of it: HitPay retries an event it sees refused, so it is acknowledged and kept. Keyed
 * by its object, type and body: a redelivery is a duplicate, a later update a new row.
 */
async function recordUnhandledEvent(
  db: Db,
  event: HitPayUnhandledEvent,
  rawBody: string,
): Promise<HitPayWebhookResult> {
  const name = `${event.object}.${event.eventType}`;
  const digest = createHash("sha256").update(rawBody, "utf8").digest("hex");
  const outcome = `ignored: ${name} events are not handled`;
  return await db.transaction().execute(async (trx) => {
    const eventId = await insertPaymentEventOnce(trx, {
      provider: HITPAY,
      eventKey: `${name}:${digest}`,
      rawBody,
    });
    if (eventId === undefined) return { kind: "duplicate" };
    await setPaymentEventOutcome(trx, eventId, null, outcome);
    return { kind: "ignored", outcome };
  });
}

/**
 * POST /api/payment/hitpay/webhook: the signature is verified over the raw body before anything
 * is read or stored (401 otherwise), then the event is applied once; a signed event about
 * something other than a payment request is recorded and acknowledged.
 */
export async function receiveHitPayWebhook(
  db: Db,
  input: { rawBody: string; headers: Headers; salt: string },
): Promise<HitPayWebhookResult> {
  // The version as the request presents itself, so a bad signature is counted under it too.
  const version = input.headers.has(HITPAY_SIGNATURE_HEADER) ? "v2" : "v1";
  const event = verifyHitPayWebhook(input.rawBody, input.headers, input.salt);
  if (!event) {
    countHitPayWebhook(version, "bad_signature");
    throw new UnauthenticatedError("Invalid webhook signature");
  }
  const result = await applyWebhookEvent(db, event, input.rawBody);
  countHitPayWebhook(version, result.kind);
  return result;
}

async function applyWebhookEvent(
  db: Db,
  event: NonNullable<ReturnType<typeof verifyHitPayWebhook>>,
  rawBody: string,
): Promise<HitPayWebhookResult> {
  if (event.kind === "unhandled") return await recordUnhandledEvent(db, event, rawBody);
  const { paymentId, ...report } = event;
  return await applyPaymentReport(db, {
    // A v2 event without its payments names the payment by its request: no payment id to keep.
    report: {
      provider: HITPAY,
      ...report,
      ...(paymentId === event.paymentRequestId ? {} : { paymentId }),
    },
    referenceNumber: event.referenceNumber,
    eventKey: hitPayEventKey(paymentId, event.status),
    rawBody,
  });
}

/**
 * Asks HitPay where an order's payment request stands, for a webhook that never came. Paid means
 * a payment `succeeded` (statuses.ts); that payment is then checked against the order (request,
 * amount, currency) and applied exactly as its webhook would be, under the same event key, so the
 * webhook arriving later is a replay. A payment HitPay refunded or voided before we heard of it
 * pays nothing and is recorded once; a request that ended unpaid is reported under its own word.
 * Returns what happened, or "pending" when nothing was paid yet.
 */
export async function reconcileHitPayPayment(
  db: Db,
  hitpay: HitPayClient,
  order: OrderRow,
  options: { expireIfPlacedBefore?: Date } = {},
): Promise<string> {
  if (order.payment_provider !== HITPAY || !order.payment_reference) return "no payment request";
  const request = await hitpay.getPaymentRequest(order.payment_reference);
  const report = hitPayReportOf(request);
  if (!report) {
    const cutOff = options.expireIfPlacedBefore;
    if (cutOff && order.status === AWAITING_PAYMENT && order.created_at < cutOff) {
      return await expireUnpaidOrder(db, order);
    }
    return "pending";
  }
  const result = await applyPaymentReport(db, {
    report: {
      provider: HITPAY,
      paymentRequestId: request.id,
      status: report.status,
      amountCents: report.amountCents,
      currency: report.currency,
      ...(report.id === request.id ? {} : { paymentId: report.id }),
    },
    referenceNumber: request.referenceNumber,
    eventKey: hitPayEventKey(report.id, report.status),
    rawBody: JSON.stringify(request),
  });
  return result.kind === "applied"
    ? result.outcome
    : result.kind === "refused"
    ? `refused: ${result.reason}`
    : result.kind;
}

/**
 * What a status answer reports, as a payment event would: a succeeded payment as HITPAY_PAID, a
 * payment taken back under its own word, a request that ended unpaid under the request's; null
 * while nothing has happened yet.
 */
function hitPayReportOf(
  request: PaymentRequestStatus,
): { id: string; status: string; amountCents: number; currency: string } | null {
  const paid = findPaidPayment(request);
  if (paid) return { ...paid, status: HITPAY_PAID };
  const takenBack = findTakenBackPayment(request);
  if (takenBack) return takenBack;
  if (isEndedUnpaid(request.status)) {
    return {
      id: request.id,
      status: request.status,
      amountCents: request.amountCents,
      currency: request.currency,
    };
  }
  return null;
}

/**
 * The shop's own end of an order's payment time: HitPay still shows its request unpaid well after
 * the `expires_after` it was given, so the order expires here. A payment HitPay reports after this
 * came too late: it is refunded, never delivered (the `paidTooLate` move).
 */
async function expireUnpaidOrder(db: Db, order: OrderRow): Promise<string> {
  const moved = await move(db, order.id, "consumer", "paymentEndedUnpaid", {
    from: [AWAITING_PAYMENT],
    to: PAYMENT_EXPIRED,
    lastError: "Payment time ran out: HitPay still showed the payment request unpaid",
  });
  return moved ? PAYMENT_EXPIRED : "already moved on";
}

/**
 * How long after a payment request's `expires_after` the shop waits before it expires the order
 * itself: room for clocks that differ and a payment HitPay took at the last second.
 */
export const PAYMENT_EXPIRY_GRACE_MINUTES = 5;

/**
 * How long an order whose HitPay payment ended unpaid is still checked by the cron: its request
 * may complete later (the buyer pays on the page they came back to), and the webhook saying so
 * may be lost. Older ones are left to that webhook, which still pays them.
 */
const UNPAID_RECHECK_MS = 7 * 24 * 60 * 60 * 1000;

/** Settings key of the last reconciliation's end and outcomes, `{ endedAt, outcomes }`. */
export const RECONCILE_LAST_RUN_KEY = "hitpay.reconcile.lastRun";

/**
 * The cron reconciliation (`payments reconcile`): every HitPay order still awaiting payment, and
 * those of the last week whose payment ended unpaid, is checked with HitPay, a few at a time.
 * Orders HitPay cannot answer for are counted, not changed. With `expiryMinutes` (the
 * `expires_after` the payment requests were given), an order still unpaid at HitPay that long
 * (plus PAYMENT_EXPIRY_GRACE_MINUTES) after it was placed moves to payment expired.
 */
export async function reconcileHitPayPayments(
  db: Db,
  hitpay: HitPayClient,
  options: { expiryMinutes?: number } = {},
): Promise<{ checked: number; paid: number; expired: number; failed: number }> {
  const awaiting = await listConsumerOrdersInStatus(db, [AWAITING_PAYMENT], 10_000);
  const ended = await listConsumerOrdersInStatus(
    db,
    UNPAID_STATES,
    10_000,
    new Date(Date.now() - UNPAID_RECHECK_MS),
  );
  const open = [...awaiting, ...ended]
    .filter((o) => o.payment_provider === HITPAY && o.payment_reference);
  const expireIfPlacedBefore = options.expiryMinutes === undefined
    ? undefined
    : new Date(Date.now() - (options.expiryMinutes + PAYMENT_EXPIRY_GRACE_MINUTES) * 60_000);
  let paid = 0;
  let expired = 0;
  const { failed } = await forEachConcurrently(open, 4, async (order) => {
    const outcome = await reconcileHitPayPayment(db, hitpay, order, { expireIfPlacedBefore });
    if (outcome === PAID_OUTCOME) paid++;
    if (outcome === PAYMENT_EXPIRED) expired++;
  });
  const outcomes = { checked: open.length, paid, expired, failed };
  // Kept for GET /metrics of every instance: the run is a cron's process of its own.
  await putSetting(
    db,
    RECONCILE_LAST_RUN_KEY,
    { endedAt: new Date().toISOString(), outcomes },
    SYSTEM,
  );
  return outcomes;
}

/**
 * GET /api/order/{id}/status: a consumer order's status and nothing else (the number is the
 * only secret the result page holds); a manual order awaiting payment adds the shop's bank account
 * from Settings, which the result page shows as the transfer instructions. The poll answers what the database holds, one read. While
 * a HitPay order awaits payment it also asks HitPay, at most once per order every 10 s across
 * instances, after answering: the next poll shows the outcome, so a lost webhook does not leave
 * the buyer waiting for cron, and no poll waits on HitPay.
 */
export async function pollConsumerOrderStatus(
  db: Db,
  hitpay: HitPayClient,
  orderId: string,
): Promise<ConsumerOrderStatus> {
  const order = await findOrderById(db, orderId);
  if (!order || order.buyer_type !== "consumer") throw new NotFoundError("Order not found");
  if (order.status !== AWAITING_PAYMENT) return { status: order.status };
  if (order.payment_provider === MANUAL) {
    return { status: order.status, bankTransfer: await readBankTransferDetails(db) };
  }
  if (order.payment_provider === HITPAY && order.payment_reference !== null) {
    checkHitPayAfterPoll(db, hitpay, order);
  }
  return { status: order.status };
}

function checkHitPayAfterPoll(db: Db, hitpay: HitPayClient, order: OrderRow) {
  (async () => {
    if (!await takeRateLimit(db, PAYMENT_CHECK_PER_ORDER, order.id)) return;
    await reconcileHitPayPayment(db, hitpay, order);
  })().catch((error) => {
    // HitPay unreachable: the webhook or cron decides; anything else is a bug worth a line.
    if (!(error instanceof HitPayError)) {
      logger().error({ msg: "payment check", order: order.id, err: error });
    }
  });
}

/**
 * The buyer came back from HitPay's checkout page having cancelled (HitPay's redirect says
 * `status=canceled` with the request id as `reference`). The redirect proves nothing, so HitPay is
 * asked first: a paid request pays the order; otherwise the order awaiting payment moves to
 * payment cancelled, where a completion HitPay reports later still pays it. `reference` must be
 * the order's own payment request (the buyer's browser is the only other holder of it).
 * Returns the order's status afterwards.
 */
export async function cancelConsumerPayment(
  db: Db,
  hitpay: HitPayClient,
  input: { orderId: string; reference: string },
): Promise<string> {
  const order = await findOrderById(db, input.orderId);
  if (
    !order || order.buyer_type !== "consumer" || order.payment_provider !== HITPAY ||
    order.payment_reference !== input.reference
  ) {
    throw new NotFoundError("Order not found");
  }
  if (order.status !== AWAITING_PAYMENT) return order.status;
  try {
    await reconcileHitPayPayment(db, hitpay, order);
  } catch (error) {
    // HitPay unreachable: the cancel stands; the cron asks again and a completion still pays.
    if (!(error instanceof HitPayError)) throw error;
  }
  const moved = await move(db, order.id, "consumer", "paymentEndedUnpaid", {
    to: PAYMENT_CANCELLED,
    lastError: "HitPay: payment canceled by the buyer",
  });
  return moved?.status ?? (await findOrderById(db, order.id))!.status;
}

/**
 * An admin confirms (or cancels) a manual payment: the same transition as HitPay's webhook, with
 * an audit row in the same transaction. Only manual orders: a HitPay order is paid only by what
 * HitPay says.
 */
export async function settleManualPayment(
  db: Db,
  input: { orderId: string; cancel: boolean; actor: OperatorActor },
): Promise<OrderRow> {
  const settled = await db.transaction().execute(async (trx) => {
    const before = await findOrderById(trx, input.orderId);
    if (!before || before.buyer_type !== "consumer" || before.payment_provider !== MANUAL) {
      throw new NotFoundError("No consumer order with manual payment has this number");
    }
    const after = input.cancel
      ? await move(trx, before.id, "consumer", "cancelled", {
        lastError: "manual payment cancelled",
      })
      : await markConsumerOrderPaid(trx, before.id);
    if (!after) {
      throw new ConflictError(`Order ${before.id} is ${before.status}, not awaiting payment`);
    }
    await insertAudit(trx, {
      ...auditActor(input.actor),
      action: input.cancel ? "order.cancel_manual_payment" : MANUAL_PAYMENT_CONFIRMED,
      targetType: "order",
      targetId: before.id,
      before: { status: before.status },
      after: { status: after.status },
    });
    return after;
  });
  countConsumerPayment(input.cancel ? "manual_cancelled" : "manual_paid");
  return settled;
}
