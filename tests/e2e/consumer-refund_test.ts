// What a buyer on a 375 px phone sees when the shop cannot deliver a paid top-up: they buy Mobile
// Legends diamonds through HitPay, EliteDias refuses the top-up, the shop refunds the payment
// through HitPay on its own. The result page (waiting with its own polling, or Check again) says
// the payment was refunded and its timeline has the refund with its amount and date; the order
// lookup shows the same; the refund email is in Admin → Emails → Sent.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  gotoHydrated,
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoAdminInBrowser,
  waitForIslands,
} from "../helpers/browser.ts";
import { simControl } from "../helpers/sessions.ts";
import { hitpaySim } from "../helpers/consumer-payments.ts";
import { HITPAY_REFUND_ENDPOINT } from "../../src/integrations/hitpay/simulator.ts";
import { formatBusinessDate } from "../../src/shared/business-time.ts";
import type { ConsumerOrderTimeline } from "../../src/shared/consumer-order-timeline.ts";
import { ORDER_DRAFT_KEY } from "../../src/shared/consumer-storefront.ts";

const PHONE = { width: 375, height: 740 };
const BUYER = "refund.buyer@example.com";
const REFUNDED = "Your payment has been refunded.";

Deno.test({
  name: "[e2e] at 375 px, a paid top-up the supplier refuses shows its refund on the result " +
    "page and the order lookup, and the refund email is in Sent",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });

      let orderId = "";
      let price = "";
      await t.step("the buyer pays for diamonds the supplier then refuses", async () => {
        await simControl(server.url, "elitedias", "rejectOrders");
        // HitPay's rate limiter turns the refund away a few times (a few seconds in all), so the
        // page's polling finds the order in error first and stops there, as the spec says.
        await hitpaySim(server.url, "forceNext", ["throttled", 3, HITPAY_REFUND_ENDPOINT]);
        ({ orderId, price } = await buyDiamonds(page, server.url));
        await page.getByRole("button", { name: "Pay" }).click();
        await page.waitForURL("**/payment/success**");
        await waitForIslands(page);
      });

      let refundLabel = "";
      await t.step("the result page says the payment was refunded, with the refund", async () => {
        const asked = await waitForRefunded(page);
        assert.ok(asked > 0, "polling stopped at the error, and Check again found the refund");
        assert.match(await orderStatus(page), /Refunded/);
        const timeline = await timelineOf(server.url, orderId);
        assert.equal(timeline.status, "refunded");
        const refund = timeline.entries.find((e) => e.kind === "refunded");
        assert.ok(refund && refund.kind === "refunded", JSON.stringify(timeline));
        assert.equal(`$${refund.amount.toFixed(2)}`, price, "the whole payment comes back");
        const atHitPay = await hitpaySim(server.url, "listRefunds") as {
          amount_refunded: number;
        }[];
        assert.deepEqual(
          atHitPay.map((r) => `$${r.amount_refunded.toFixed(2)}`),
          [price],
          "one refund at HitPay",
        );
        // The date shown is when HitPay refunded it: moments ago.
        const ago = Date.now() - new Date(refund.at).getTime();
        assert.ok(ago >= 0 && ago < 5 * 60_000, refund.at);
        refundLabel = `Refunded ${price} on ${formatBusinessDate(refund.at)}`;
        await timelineShows(page, [
          "Order placed",
          "Paid",
          "Sent to the supplier",
          "Not delivered",
          refundLabel,
        ]);
        assert.equal(await page.getByRole("button", { name: "Check again" }).count(), 0);
        assert.equal(await page.getByText("Checking your order status...").count(), 0);
        assert.equal(await pageOverflow(page), 0, "the page fits 375 px");
        await page.screenshot({ path: "/tmp/refund-result-375.png", fullPage: true });
        await saveScreenshot(page, "refund-result-375");
        await page.setViewportSize({ width: 1280, height: 900 });
        assert.equal(await pageOverflow(page), 0, "the page fits 1280 px");
        await page.screenshot({ path: "/tmp/refund-result-1280.png", fullPage: true });
        await saveScreenshot(page, "refund-result-1280");
        await page.setViewportSize(PHONE);
      });

      await t.step("the order lookup shows the same refund", async () => {
        const lookup = await context.newPage();
        await gotoHydrated(lookup, `${server.url}/consumers/order?order=${orderId}`);
        await lookup.getByLabel("Email Address").fill(BUYER);
        await lookup.getByRole("button", { name: "Find Order" }).click();
        await lookup.getByRole("heading", { name: REFUNDED }).waitFor();
        assert.match(await orderStatus(lookup), /Refunded/);
        await timelineShows(lookup, [
          "Order placed",
          "Paid",
          "Sent to the supplier",
          "Not delivered",
          refundLabel,
        ]);
        assert.equal(await pageOverflow(lookup), 0, "the lookup fits 375 px");
        await lookup.screenshot({ path: "/tmp/refund-lookup-375.png", fullPage: true });
        await lookup.close();
      });
      assert.deepEqual(alerts, []);
      await context.close();

      await t.step("the refund email is in Admin → Emails → Sent", async () => {
        const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await signInDemoAdminInBrowser(admin, server.url);
        await admin.getByRole("navigation", { name: "Admin menu" })
          .getByRole("button", { name: "Emails" }).click();
        await admin.getByRole("tab", { name: "Sent" }).click();
        await admin.getByPlaceholder("Search by to, from, or subject...").fill(BUYER);
        const subject = `Refund for order ${orderId}`;
        const row = admin.locator("tbody tr").filter({
          has: admin.getByRole("cell", { name: subject, exact: true }),
        });
        // The email leaves through the job queue: the Sent folder is read again until it is there.
        for (let i = 0; i < 30 && !await row.count(); i++) {
          await new Promise((ok) => setTimeout(ok, 500));
          await admin.getByRole("tab", { name: "Inbox" }).click();
          await admin.getByRole("tab", { name: "Sent" }).click();
        }
        await row.waitFor();
        assert.match(await row.innerText(), new RegExp(BUYER.replace(/\./g, "\\.")));
        await row.click();
        const frame = admin.frameLocator("iframe[title^='Message:']");
        await frame.getByText(REFUNDED).waitFor();
        const body = await frame.locator("body").innerText();
        assert.ok(body.includes(`${price.slice(1)} SGD`), `the refunded amount in:\n${body}`);
        await admin.close();
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});

/**
 * Buys the first diamonds of Mobile Legends' special account on the top-up page, with BUYER as the
 * billing email; ends on HitPay's payment page, before Pay.
 */
async function buyDiamonds(page: Page, base: string) {
  await page.goto(`${base}/consumers`);
  await page.getByRole("link", { name: /Mobile Legends/ }).click();
  await page.waitForURL("**/consumers/mobile-legends");
  await waitForIslands(page);
  await page.getByLabel("User ID").fill("22222222");
  await page.getByLabel("Server ID").fill("2222");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.locator(".ct-verified").waitFor();
  await page.getByRole("heading", { name: "Double Recharge" }).waitFor();
  const card = page.locator(".ct-item").first();
  const price = (await card.locator(".item-price").innerText()).trim();
  await card.click();
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("heading", { name: "Review Your Order" }).waitFor();
  await page.getByLabel("First Name").fill("Ana");
  await page.getByLabel("Last Name").fill("Buyer");
  await page.getByLabel("Phone Number (with country code)").fill("+65 8123 4567");
  await page.getByLabel("Email Address", { exact: true }).fill(BUYER);
  await page.getByLabel("Confirm Email Address").fill(BUYER);
  await page.getByLabel("PayNow / GrabPay / ShopeePay Later / Atome").check();
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await page.waitForURL(/\/__sim\/hitpay\//);
  const draft = JSON.parse(
    await page.evaluate((key) => localStorage.getItem(key) ?? "null", ORDER_DRAFT_KEY),
  );
  return { orderId: draft.orderID as string, price };
}

/**
 * Waits for the refunded headline as a buyer would: the page's own polling, then Check again
 * while it is offered. Returns how many times Check again was pressed.
 */
async function waitForRefunded(page: Page): Promise<number> {
  let asked = 0;
  const heading = page.getByRole("heading", { name: REFUNDED });
  const checkAgain = page.getByRole("button", { name: "Check again" });
  for (let i = 0; i < 120 && !await heading.isVisible(); i++) {
    if (await checkAgain.isVisible() && await checkAgain.isEnabled()) {
      assert.match(await orderStatus(page), /Error/, "polling stops short of the refund at error");
      await checkAgain.click();
      asked++;
    }
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const shown = await page.locator(".ct-result").innerText();
  assert.ok(await heading.isVisible(), `the refund never showed; the page shows:\n${shown}`);
  return asked;
}

async function orderStatus(page: Page): Promise<string> {
  return await page.locator(".ct-order-block div", { hasText: "Order Status" }).innerText();
}

/** GET /api/order/{id}/timeline, as the page reads it. */
async function timelineOf(base: string, orderId: string): Promise<ConsumerOrderTimeline> {
  const r = await fetch(new URL(`/api/order/${orderId}/timeline`, base));
  assert.equal(r.status, 200);
  return await r.json();
}

/** The timeline under the order block shows exactly `labels`, in that order. */
async function timelineShows(page: Page, labels: string[]) {
  const shown = page.locator(".ct-timeline .ct-timeline-label");
  let texts: string[] = [];
  for (let i = 0; i < 50; i++) {
    texts = (await shown.allInnerTexts()).map((text) => text.trim());
    if (texts.join("\n") === labels.join("\n")) break;
    await new Promise((ok) => setTimeout(ok, 200));
  }
  assert.deepEqual(texts, labels);
}
