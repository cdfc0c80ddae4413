import assert from "node:assert/strict";
import { consumerReceipt, type ReceiptOrder } from "../../src/domain/mail/receipts.ts";

const ORDER: ReceiptOrder = {
  id: "c0a8012e-7f3a-4d1b-9a55-0d6f2b9e4c11",
  status: "payment-received-pending-disbursement",
  game: "Mobile Legends",
  item: "86 Diamonds",
  userId: "11111111",
  serverId: "1111",
  userName: "<script>alert(1)</script>",
  amountCents: 123450,
  paymentProvider: "hitpay",
  customerName: `Ana "Q" O'Neil & Co`,
  email: "ana@example.com",
  // 3:04 pm in Singapore, whatever the zone of the server that sends the mail.
  createdAt: new Date("2025-01-05T07:04:00Z"),
};
const LINKS = { orderPageUrl: "https://shop.example.com/consumers/order?id=c0a8&x=<y>" };

Deno.test("[receipts] the paid receipt goes to the billing email with every order field", () => {
  const mail = consumerReceipt("paid", ORDER, LINKS);
  assert.equal(mail.to, "ana@example.com");
  assert.equal(mail.subject, `Payment received for order ${ORDER.id}`);
  for (
    const line of [
      `Hi Ana "Q" O'Neil & Co,`,
      "Thank you for your purchase.",
      `Order Number: ${ORDER.id}`,
      "Order Status: Payment Received. Pending Processing",
      "Date: 5 Jan 2025, 3:04 pm (Singapore time)",
      "Game: Mobile Legends",
      "Item: 86 Diamonds",
      "User Name: <script>alert(1)</script>",
      "User ID: 11111111",
      "Server ID: 1111",
      "Amount: $1,234.50 SGD",
      "Payment: Online payment (PayNow, GrabPay, ShopeePay or Atome through HitPay)",
      `Your order: ${LINKS.orderPageUrl}`,
    ]
  ) assert.ok(mail.text.split("\n").includes(line), `text has "${line}":\n${mail.text}`);
});

Deno.test("[receipts] every field in the HTML receipt is escaped", () => {
  const { html } = consumerReceipt("paid", ORDER, LINKS);
  assert.doesNotMatch(html, /<script>/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /Hi Ana &quot;Q&quot; O&#39;Neil &amp; Co,/);
  assert.match(
    html,
    /href="https:\/\/shop\.example\.com\/consumers\/order\?id=c0a8&amp;x=&lt;y&gt;"/,
  );
  assert.match(html, />\$1,234\.50 SGD</);
});

Deno.test("[receipts] a bank transfer is named as such; a game without a server has no Server ID", () => {
  const mail = consumerReceipt(
    "paid",
    { ...ORDER, paymentProvider: "manual", serverId: "" },
    LINKS,
  );
  const lines = mail.text.split("\n");
  assert.ok(lines.includes("Payment: Bank transfer"), mail.text);
  assert.ok(!lines.some((line) => line.startsWith("Server ID")), mail.text);
});

Deno.test("[receipts] the delivered receipt says the order reached the account", () => {
  const mail = consumerReceipt("delivered", { ...ORDER, status: "successful" }, LINKS);
  assert.equal(mail.subject, `Order ${ORDER.id} delivered`);
  assert.ok(mail.text.includes("Your order has been successfully delivered to your account."));
  assert.ok(mail.text.includes("Order Status: Successful"));
  assert.match(mail.html, /successfully delivered to your account/);
});

Deno.test("[receipts] the refund email says how much came back, when and why", () => {
  const mail = consumerReceipt("refunded", { ...ORDER, status: "refunded" }, LINKS, {
    amountCents: 123450,
    at: new Date("2025-01-06T02:30:00Z"),
    reason: "We could not deliver this top-up to your account.",
  });
  assert.equal(mail.to, "ana@example.com");
  assert.equal(mail.subject, `Refund for order ${ORDER.id}`);
  for (
    const line of [
      "Your payment has been refunded.",
      "Refunded: $1,234.50 SGD",
      "Refund Date: 6 Jan 2025, 10:30 am (Singapore time)",
      "Why: We could not deliver this top-up to your account.",
      "Order Status: Refunded",
    ]
  ) assert.ok(mail.text.split("\n").includes(line), `text has "${line}":\n${mail.text}`);
  assert.match(mail.html, /We could not deliver this top-up to your account\./);
});
