// Needs review: the orders the system will not decide alone. An order lands here when
// a supplier create's outcome is unknown and the supplier cannot be asked by our reference
// (EliteDias), or when a supplier job used its last attempt; a consumer order in error lands here
// when HitPay refused its refund or never answered (consumer-refunds.ts). Its status does not
// change (the reseller and the consumer keep seeing it pending), no money moves, nothing is sent
// again on its own, and every admin is told once by email. The queue and the operator's decisions are
// review-queue.ts.

import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/schema.ts";
import { listAdmins } from "../../db/repositories/admins.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { supplierDisplayName } from "../../shared/supplier-games.ts";
import { FAILED, holdForReview } from "./lifecycle.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Puts an order in Needs review with `reason`, and in the same transaction queues the email that
 * tells every admin, once: an order already there is left as it is.
 */
export async function sendOrderToReview(db: Db, orderId: string, reason: string): Promise<void> {
  await db.transaction().execute((trx) => notifyReview(trx, orderId, reason, "supplier"));
}

/**
 * A consumer order in error whose refund HitPay refused (or never answered) goes to Needs review
 * with `reason`, in the caller's transaction, with the admins' email: only an operator can take it
 * further (ask HitPay again, or settle it with the buyer).
 */
export async function sendRefundToReview(
  trx: Transaction<Database>,
  orderId: string,
  reason: string,
): Promise<boolean> {
  return await notifyReview(trx, orderId, reason, "refund");
}

const NEXT_STEPS = {
  supplier: "Nothing is sent to the supplier again and no money moves until it is resolved in " +
    "Admin → Orders → Needs review: mark it delivered with the supplier's order id, refund it, " +
    "or send it again.",
  refund: "The customer's payment has not been refunded. Check the payment in HitPay, then " +
    "press Refund in Admin → Orders → Needs review to ask HitPay again.",
};

async function notifyReview(
  trx: Transaction<Database>,
  orderId: string,
  reason: string,
  why: keyof typeof NEXT_STEPS,
): Promise<boolean> {
  const order = await holdForReview(trx, orderId, reason, why === "refund" ? [FAILED] : undefined);
  if (!order) return false;
  const subject = `Order ${order.id} needs review`;
  const supplier = supplierDisplayName(order.supplier);
  const lines = [
    `Order ${order.id} (${order.game}, ${order.item}, ${supplier}) needs an operator.`,
    reason,
    NEXT_STEPS[why],
  ];
  for (const admin of await listAdmins(trx)) {
    await enqueueMail(trx, {
      to: admin.email,
      subject,
      text: lines.join("\n\n"),
      html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""),
    });
  }
  return true;
}
