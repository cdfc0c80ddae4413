// The consumer's receipts: one when the payment is received, one when the order is delivered, and
// one when its payment was refunded.
// Plain text for every mail client, and simple HTML in which every value is escaped: names,
// nicknames and item names come from buyers and suppliers.

import { escapeHtml } from "../../shared/html.ts";
import { centsToDollarString } from "../money.ts";
import { formatBusinessDate } from "../../shared/business-time.ts";
import type { MailMessage } from "./outbox.ts";
import {
  BANK_TRANSFER_TEXTS,
  type BankTransferDetails,
  bankTransferRows,
  consumerStatusLabel,
  hasBankAccount,
} from "../../shared/consumer-storefront.ts";

/** What a receipt shows of a consumer order. */
export interface ReceiptOrder {
  id: string;
  status: string;
  game: string;
  item: string;
  userId: string;
  serverId: string;
  userName: string;
  amountCents: number;
  /** How the buyer pays: "hitpay" (HitPay's payment page) or "manual" (a bank transfer). */
  paymentProvider: string;
  customerName: string;
  email: string;
  createdAt: Date;
}

const WORDING = {
  paid: {
    subject: (id: string) => `Payment received for order ${id}`,
    headline: "Thank you for your purchase.",
    lead: "We have received your payment and are delivering your order now.",
  },
  delivered: {
    subject: (id: string) => `Order ${id} delivered`,
    headline: "Thank you for your purchase.",
    lead: "Your order has been successfully delivered to your account.",
  },
  refunded: {
    subject: (id: string) => `Refund for order ${id}`,
    headline: "Your payment has been refunded.",
    lead: "The refund is on its way to the account or card you paid with; your bank or wallet " +
      "may take a few days to show it.",
  },
};

/** A refund as the "refunded" receipt shows it. */
export interface ReceiptRefund {
  amountCents: number;
  at: Date;
  /** Why, in the buyer's words. */
  reason: string;
}

/** The receipt for `order` at `kind`, addressed to the order's billing email. */
export function consumerReceipt(
  kind: "paid" | "delivered" | "refunded",
  order: ReceiptOrder,
  links: { orderPageUrl: string },
  refund?: ReceiptRefund,
): MailMessage {
  const rows: [string, string][] = refund
    ? [
      ["Refunded", `${centsToDollarString(refund.amountCents)} SGD`],
      ["Refund Date", `${formatBusinessDate(refund.at)} (Singapore time)`],
      ["Why", refund.reason],
    ]
    : [];
  return orderMail(order, WORDING[kind], rows, links);
}

/**
 * The instructions of a manual order: the bank account from Settings, the amount and the order
 * number as the reference, before the order itself (the same rows the result page shows).
 */
export function bankTransferMail(
  order: ReceiptOrder,
  details: BankTransferDetails,
  links: { orderPageUrl: string },
): MailMessage {
  const account = hasBankAccount(details);
  return orderMail(
    order,
    {
      subject: (id) => `Bank transfer details for order ${id}`,
      headline: BANK_TRANSFER_TEXTS.heading,
      lead: account ? BANK_TRANSFER_TEXTS.lead : BANK_TRANSFER_TEXTS.noAccount,
    },
    bankTransferRows(details, order.id, centsToDollarString(order.amountCents)),
    links,
  );
}

/** How each payment provider reads on a receipt. */
const PAYMENT_METHOD_NAMES: Record<string, string> = {
  hitpay: "Online payment (PayNow, GrabPay, ShopeePay or Atome through HitPay)",
  manual: "Bank transfer",
};

function orderMail(
  order: ReceiptOrder,
  wording: { subject: (id: string) => string; headline: string; lead: string },
  instructions: [string, string][],
  links: { orderPageUrl: string },
): MailMessage {
  const rows: [string, string][] = [
    ["Order Number", order.id],
    ["Order Status", consumerStatusLabel(order.status)],
    ["Date", `${formatBusinessDate(order.createdAt)} (Singapore time)`],
    ["Game", order.game],
    ["Item", order.item],
    ["User Name", order.userName],
    ["User ID", order.userId],
    ...(order.serverId ? [["Server ID", order.serverId] as [string, string]] : []),
    ["Amount", `${centsToDollarString(order.amountCents)} SGD`],
    ["Payment", PAYMENT_METHOD_NAMES[order.paymentProvider] ?? order.paymentProvider],
  ];
  const greeting = `Hi ${order.customerName},`;
  const text = [
    greeting,
    "",
    wording.headline,
    wording.lead,
    "",
    ...instructions.flatMap(([label, value], i) =>
      i === instructions.length - 1 ? [`${label}: ${value}`, ""] : [`${label}: ${value}`]
    ),
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    `Your order: ${links.orderPageUrl}`,
    "",
    "TopUp",
    "",
  ].join("\n");
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${
    escapeHtml(wording.subject(order.id))
  }</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p><strong>${escapeHtml(wording.headline)}</strong><br>${escapeHtml(wording.lead)}</p>
${instructions.length ? htmlRows(instructions, "font-weight:bold") : ""}
${htmlRows(rows, "")}
<p><a href="${escapeHtml(links.orderPageUrl)}">View your order</a></p>
<p>TopUp</p>
</body></html>`;
  return { to: order.email, subject: wording.subject(order.id), text, html };
}

const CELL = "padding:4px 12px 4px 0;text-align:left;vertical-align:top";

function htmlRows(rows: [string, string][], valueStyle: string): string {
  const lines = rows.map(([label, value]) =>
    `<tr><th scope="row" style="${CELL};color:#555;font-weight:normal">${
      escapeHtml(label)
    }</th><td style="${CELL};${valueStyle}">${escapeHtml(value)}</td></tr>`
  );
  return `<table style="border-collapse:collapse;margin-bottom:12px">\n${
    lines.join("\n")
  }\n</table>`;
}
