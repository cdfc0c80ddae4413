import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, waitForIslands } from "../helpers/browser.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { hitpaySim } from "../helpers/consumer-payments.ts";
import type { EmailsPage } from "../../src/shared/email-types.ts";
import { ORDER_DRAFT_KEY } from "../../src/shared/consumer-storefront.ts";

Deno.test({
  name: "[e2e] a first-time buyer on a 375 px phone buys diamonds through HitPay, sees them " +
    "delivered on /payment/success, and the receipts reach the demo mail sink",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    // The simulated supplier delivers at once, so the first delivery check finds the order done.
    const server = await startTestServer(tdb, { SIM_ELITEDIAS_COMPLETE_AFTER_MS: "0" });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      const verifyCalls: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/consumers/verify_id/mlbb")) verifyCalls.push(r.url());
      });
      const noSideScroll = async () =>
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
          "the page fits 375 px without sideways scrolling",
        );

      await page.goto(`${server.url}/consumers`);
      await page.getByRole("link", { name: /Mobile Legends/ }).click();
      await page.waitForURL("**/consumers/mobile-legends");
      await waitForIslands(page);
      await noSideScroll();

      const verify = page.getByRole("button", { name: "Verify" });
      const proceed = page.getByRole("button", { name: "Proceed to Payment" });
      const items = page.locator(".ct-item");
      assert.ok(await items.count() > 0, "items are listed before Verify");
      assert.ok(await items.first().isDisabled(), "but cannot be chosen yet");
      assert.ok(await proceed.isDisabled());

      await page.getByLabel("User ID").fill("22222222");
      await verify.click();
      await page.waitForTimeout(300);
      assert.equal(verifyCalls.length, 0, "Verify does nothing while Server ID is empty");

      await page.getByLabel("Server ID").fill("5555");
      await page.getByLabel("User ID").fill("55555555");
      await verify.click();
      await page.getByText("Invalid user").waitFor();
      await page.getByText("Please check and try again.").waitFor();
      assert.equal(await items.count(), 0, "no items for an invalid account");

      await page.getByLabel("User ID").fill("66666666");
      await page.getByLabel("Server ID").fill("6666");
      await verify.click();
      await page.getByText(/^Items for .+ are currently Out of Stock \/ Under Maintenance\.$/)
        .waitFor();
      await page.getByText("Please try again later.").waitFor();

      await page.getByLabel("User ID").fill("22222222");
      await page.getByLabel("Server ID").fill("2222");
      await verify.click();
      await page.locator(".ct-verified").waitFor();
      const nickname = (await page.locator(".ct-verified").innerText()).trim();
      assert.ok(nickname.length > 0);
      await page.getByRole("heading", { name: "Double Recharge" }).waitFor();
      assert.ok(await page.getByRole("img", { name: "Diamonds" }).count() > 0, "gems for Diamonds");

      const card = items.first();
      const price = (await card.locator(".item-price").innerText()).trim();
      assert.match(price, /^\$\d+\.\d{2}$/);
      await card.click();
      assert.equal(await card.getAttribute("aria-pressed"), "true");
      await proceed.click();
      assert.ok(await proceed.isDisabled(), "Proceed is disabled once review is open");
      await page.getByRole("heading", { name: "Review Your Order" }).waitFor();
      await page.waitForFunction(() =>
        (document.activeElement as HTMLInputElement | null)?.name === "firstName"
      );
      const summary = page.locator(".ct-summary");
      assert.match(await summary.innerText(), new RegExp(`Subtotal\\s+\\${price}`));
      assert.match(await summary.innerText(), /Tax\s+\$0\.00/);
      assert.match(await summary.innerText(), new RegExp(`Total\\s+\\${price}`));

      const complete = page.getByRole("button", { name: "Complete Payment" });
      await complete.click();
      await page.getByText("Please enter first name").waitFor();
      await page.getByLabel("First Name").fill("Ana");
      await page.getByLabel("Last Name").fill("Buyer");
      await page.getByLabel("Phone Number (with country code)").fill("+65 8123 4567");
      await page.getByLabel("Email Address", { exact: true }).fill("ana@example.com");
      await page.getByLabel("Confirm Email Address").fill("ana@example.org");
      await complete.click();
      await page.getByText("Email addresses do not match").waitFor();
      await page.getByLabel("Confirm Email Address").fill("ana@example.com");
      await complete.click();
      await page.getByText("Please select payment method").waitFor();
      await page.getByLabel("PayNow / GrabPay / ShopeePay Later / Atome").check();
      await noSideScroll();

      // HitPay refusing the payment request: the spec's inline error and alert, and a retry works.
      await hitpaySim(server.url, "forceNext", ["error"]);
      await complete.click();
      await page.getByText("Failed to initiate payment, please try again.").waitFor();
      assert.match(await page.locator(".ct-summary").innerText(), /Payment Error/);
      assert.deepEqual(alerts, ["Payment failed."]);
      assert.ok(await complete.isEnabled(), "Complete Payment is usable again");
      alerts.length = 0;
      await complete.click();

      await page.waitForURL(/\/__sim\/hitpay\//);
      assert.match(await page.locator(".amount").innerText(), new RegExp(`SGD ${price.slice(1)}`));
      const draft = JSON.parse(
        await page.evaluate((key) => localStorage.getItem(key) ?? "null", ORDER_DRAFT_KEY),
      );
      for (
        const field of [
          "consumer",
          "game",
          "userid",
          "serverid",
          "denom",
          "userName",
          "itemName",
          "amount",
          "cost",
          "package",
          "orderID",
          "gameName",
          "status",
        ]
      ) assert.ok(field in draft, `draft has ${field}`);
      assert.equal(draft.package, "mlbb_special");
      assert.equal(`$${draft.amount.toFixed(2)}`, price);

      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL("**/payment/success**");
      await page.getByText("Thank you for your purchase.").waitFor();
      await page.getByText("Your order has been successfully delivered to your account.")
        .waitFor({ timeout: 30_000 });
      const block = await page.locator(".ct-order-block").innerText();
      for (
        const line of [
          `Order Number\t${draft.orderID}`,
          "Order Status\tSuccessful",
          `User Name\t${nickname}`,
          "User ID\t22222222",
          "Server ID\t2222",
          `Amount\t${price}`,
        ]
      ) assert.ok(block.replace(/\n/g, "\t").includes(line), `${line} in ${block}`);
      await page.getByRole("link", { name: "WhatsApp" }).first().waitFor();
      await page.getByRole("link", { name: "Telegram" }).first().waitFor();
      await noSideScroll();
      assert.deepEqual(alerts, []);

      // Another browser has no saved order; a saved order the server does not know fails.
      const stranger = await (await browser.newContext({ viewport: { width: 375, height: 740 } }))
        .newPage();
      await stranger.goto(`${server.url}/payment/success`);
      await stranger.getByText("No order details found").waitFor();
      await stranger.evaluate(
        ([key, draft]) => localStorage.setItem(key, draft),
        [ORDER_DRAFT_KEY, JSON.stringify({ ...draft, orderID: "C0000000000000000" })],
      );
      await stranger.reload();
      await stranger.getByText("Failed to fetch order details").waitFor();
      await stranger.getByRole("link", { name: "Back to Games" }).click();
      await stranger.waitForURL("**/consumers");

      // The receipt's link finds the order on that other device with the billing email.
      await stranger.goto(`${server.url}/consumers/order?order=${draft.orderID}`);
      await waitForIslands(stranger);
      assert.equal(await stranger.getByLabel("Order Number").inputValue(), draft.orderID);
      await stranger.getByLabel("Email Address").fill("someone@example.com");
      await stranger.getByRole("button", { name: "Find Order" }).click();
      await stranger.getByText("No order matches this order number and email address.").waitFor();
      await stranger.getByLabel("Email Address").fill("Ana@Example.com");
      await stranger.getByRole("button", { name: "Find Order" }).click();
      await stranger.getByText("Your order has been successfully delivered to your account.")
        .waitFor();
      assert.match(await stranger.locator(".ct-order-block").innerText(), /Successful/);

      const admin = await signInDemoAdmin(server.url);
      let subjects: string[] = [];
      for (let i = 0; i < 50 && subjects.length < 2; i++) {
        if (i) await new Promise((ok) => setTimeout(ok, 200));
        const sent = (await admin.get("/api/sent-emails?page=1")).json as EmailsPage;
        subjects = sent.emails.filter((e) => e.to === "ana@example.com").map((e) => e.subject);
      }
      assert.deepEqual(subjects.sort(), [
        `Order ${draft.orderID} delivered`,
        `Payment received for order ${draft.orderID}`,
      ]);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
