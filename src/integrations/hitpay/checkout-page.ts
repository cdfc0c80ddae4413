// The HitPay simulator's hosted checkout page: the amount, the payment methods of the request and
// Pay / Fail / Cancel. Plain server-rendered HTML, no script; every value is escaped.

import { escapeHtml } from "../../shared/html.ts";
import type { HitPayPaymentMethod } from "./payment-methods.ts";

/** What the page shows of one payment request. */
export interface CheckoutView {
  /** Where the form posts (the page's own URL). */
  action: string;
  /** Formatted, e.g. "1,234.50". */
  amount: string;
  currency: string;
  purpose: string;
  referenceNumber: string;
  email: string;
  paymentMethods: string[];
  /** "pending" shows the buttons; anything else says the request is closed. */
  status: string;
  /** Where "Return to merchant" goes once the request is closed, if anywhere. */
  returnUrl: string | null;
}

/** HitPay method codes with the display names of HitPay's payment methods reference (payment-methods.ts). */
const METHOD_LABELS: Readonly<Record<string, string>> = {
  card: "Visa, Mastercard, Amex",
  card_adyen: "Cards",
  card_present: "Card Terminal",
  card_present_adyen: "Card Terminal",
  paynow_online: "PayNow",
  giro: "GIRO Direct Debit",
  grabpay_direct: "GrabPay",
  grabpay_paylater: "GrabPay PayLater",
  shopee_pay: "ShopeePay",
  shopee_pay_later: "SPayLater",
  shopback: "ShopBack PayLater",
  atome: "Atome",
  atome_qr: "Atome QR",
  wechat_pay: "WeChat Pay",
  upi_qr: "UPI",
} satisfies Record<HitPayPaymentMethod, string>;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:#0f1115;color:#e8e8ea;
  font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  display:flex;align-items:flex-start;justify-content:center;padding:24px 16px}
main{width:100%;max-width:420px;background:#181b22;border:1px solid #2a2f3a;border-radius:12px;
  padding:24px 20px}
.note{margin:0 0 16px;padding:8px 12px;border-radius:8px;background:#2a2410;color:#f5c542;
  font-size:13px}
h1{margin:0;font-size:14px;font-weight:600;color:#9aa0ab;text-transform:uppercase;
  letter-spacing:.06em}
.amount{margin:4px 0 16px;font-size:32px;font-weight:700;color:#fff}
dl{margin:0 0 20px;display:grid;grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px}
dt{color:#9aa0ab}dd{margin:0;overflow-wrap:anywhere}
fieldset{border:0;margin:0 0 20px;padding:0}
legend{font-size:14px;color:#9aa0ab;margin-bottom:8px}
label.method{display:flex;align-items:center;gap:10px;padding:12px;margin-bottom:8px;
  border:1px solid #2a2f3a;border-radius:8px;cursor:pointer}
label.method:has(input:checked){border-color:#f5c542;background:#1f2230}
input[type=radio]{accent-color:#f5c542;width:18px;height:18px;margin:0}
.buttons{display:grid;gap:10px}
button,a.button{display:block;width:100%;padding:14px;border-radius:8px;border:1px solid #2a2f3a;
  font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer;
  background:#232733;color:#e8e8ea}
button.pay{background:#f5c542;border-color:#f5c542;color:#14161b}
button.fail{color:#ff8a80}
`;

function methodLabel(code: string): string {
  return METHOD_LABELS[code] ?? code;
}

function methodChoices(methods: string[]): string {
  const choices = methods.length ? methods : ["paynow_online"];
  return choices.map((code, i) =>
    `<label class="method"><input type="radio" name="method" value="${escapeHtml(code)}"${
      i === 0 ? " checked" : ""
    }>${escapeHtml(methodLabel(code))}</label>`
  ).join("");
}

function details(view: CheckoutView): string {
  const rows: [string, string][] = [
    ["Reference", view.referenceNumber],
    ["For", view.purpose],
    ["Email", view.email],
  ];
  return rows.filter(([, value]) => value !== "")
    .map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`).join("");
}

/** The checkout page of one payment request. */
export function renderCheckoutPage(view: CheckoutView): string {
  const body = view.status === "pending"
    ? `<form method="post" action="${escapeHtml(view.action)}">
<fieldset><legend>Pay with</legend>${methodChoices(view.paymentMethods)}</fieldset>
<div class="buttons">
<button class="pay" type="submit" name="action" value="pay">Pay</button>
<button class="fail" type="submit" name="action" value="fail">Fail</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div></form>`
    : `<p>This payment request is ${escapeHtml(view.status)}.</p>${
      view.returnUrl
        ? `<a class="button" href="${escapeHtml(view.returnUrl)}">Return to merchant</a>`
        : ""
    }`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>HitPay checkout (simulator)</title><style>${STYLE}</style></head>
<body><main>
<p class="note">HitPay simulator: no money moves.</p>
<h1>Amount to pay</h1>
<p class="amount">${escapeHtml(view.currency)} ${escapeHtml(view.amount)}</p>
<dl>${details(view)}</dl>
${body}
</main></body></html>`;
}

/** A page for a checkout link that names no payment request. */
export function renderMissingCheckoutPage(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>HitPay checkout (simulator)</title><style>${STYLE}</style></head>
<body><main><h1>Payment request not found</h1></main></body></html>`;
}
