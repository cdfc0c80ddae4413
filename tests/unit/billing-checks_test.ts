import assert from "node:assert/strict";
import {
  type BillingDetails,
  consumerStatusLabel,
  FINAL_STATUSES,
  firstBillingProblem,
  offersCheckAgain,
  resultTextsFor,
} from "../../src/shared/consumer-storefront.ts";

const COMPLETE: BillingDetails = {
  firstName: "Ana",
  lastName: "",
  phone: "+65 8123 4567",
  email: "ana@example.com",
  confirmEmail: "ANA@example.com",
  paymentMethod: "paynow",
};

Deno.test("[billing] a complete form passes; last name is optional; emails compare case-blind", () => {
  assert.equal(firstBillingProblem(COMPLETE), null);
  assert.equal(firstBillingProblem({ ...COMPLETE, paymentMethod: "manual" }), null);
  for (const phone of ["+6581234567", "+63 917 123 4567", "+1 (415) 555-0100"]) {
    assert.equal(firstBillingProblem({ ...COMPLETE, phone }), null, phone);
  }
});

Deno.test("[billing] each check gives the spec's message, in the spec's order", () => {
  // Each case breaks one more field than the next, so only the spec's order gives these answers.
  const cases: [Partial<BillingDetails>, string, string][] = [
    [{ firstName: "  ", phone: "", email: "" }, "firstName", "Please enter first name"],
    [{ phone: " ", email: "" }, "phone", "Please enter phone number with country code"],
    [{ phone: "12345", email: "" }, "phone", "Please enter phone number with country code"],
    [{ phone: "81234567", email: "" }, "phone", "Please enter phone number with country code"],
    [{ phone: "+65 1234", email: "" }, "phone", "Please enter phone number with country code"],
    [{ email: "", confirmEmail: "" }, "email", "Please enter email address"],
    [{ email: "ana@example", confirmEmail: "" }, "email", "Please enter a valid email address"],
    [{ email: "ana @example.com" }, "email", "Please enter a valid email address"],
    [
      { confirmEmail: " ", paymentMethod: "" },
      "confirmEmail",
      "Please enter confirm email address",
    ],
    [
      { confirmEmail: "ana@example.org", paymentMethod: "" },
      "confirmEmail",
      "Email addresses do not match",
    ],
    [{ paymentMethod: "" }, "paymentMethod", "Please select payment method"],
    [{ paymentMethod: "bitcoin" }, "paymentMethod", "Please select payment method"],
  ];
  for (const [broken, field, message] of cases) {
    assert.deepEqual(
      firstBillingProblem({ ...COMPLETE, ...broken }),
      { field, message },
      JSON.stringify(broken),
    );
  }
});

Deno.test("[result page] headline, sub text per status (spec §2 table), cancelled is not 'processed'", () => {
  assert.deepEqual(
    [resultTextsFor("successful").headline, resultTextsFor("successful").sub],
    ["Thank you for your purchase.", "Your order has been successfully delivered to your account."],
  );
  assert.deepEqual(
    [
      resultTextsFor("pending-customer-payment").headline,
      resultTextsFor("pending-customer-payment").sub,
    ],
    ["Payment has not been completed.", "Your payment method might have been rejected."],
  );
  for (const other of ["payment-received-pending-disbursement", "error"]) {
    assert.deepEqual([resultTextsFor(other).headline, resultTextsFor(other).sub], [
      "Thank you for your purchase.",
      "Your order is being processed. You may refresh this page to check your order status in a few moments' time.",
    ]);
  }
  assert.doesNotMatch(resultTextsFor("cancelled").sub, /processed/);
  assert.equal(consumerStatusLabel("pending-customer-payment"), "Pending Payment");
  assert.equal(
    consumerStatusLabel("payment-received-pending-disbursement"),
    "Payment Received. Pending Processing",
  );
});

Deno.test("[result page] a refunded order says its payment came back, and the page stops polling", () => {
  assert.equal(resultTextsFor("refunded").headline, "Your payment has been refunded.");
  assert.doesNotMatch(resultTextsFor("refunded").sub, /processed/);
  assert.equal(consumerStatusLabel("refunded"), "Refunded");
  assert.ok(FINAL_STATUSES.includes("refunded"));
});

Deno.test("[result page] an order in error still offers Check again: its refund may follow", () => {
  // Polling stops on error (spec §4), but the shop goes on to refund it or deliver it after a check.
  assert.ok(FINAL_STATUSES.includes("error"));
  assert.ok(offersCheckAgain("error"));
  assert.ok(offersCheckAgain("pending-customer-payment"));
  assert.ok(offersCheckAgain("payment-received-pending-disbursement"));
  for (const status of ["successful", "refunded", "payment-expired", "cancelled"]) {
    assert.ok(!offersCheckAgain(status), status);
  }
});
