// What a buyer on a 375 px phone sees happen to an order after the result page's 30 s of polling:
// "Check again" asks once more and shows the new status; "I have paid" asks HitPay at once when
// its webhook is late (or says when it may be tried again); the order's timeline sits under the
// order block, on the result page and on the order lookup alike.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { gotoHydrated, launchBrowser, saveScreenshot } from "../helpers/browser.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  paymentRequestOf,
  SPECIAL_ACCOUNT,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import { type ConsumerOrderDraft, ORDER_DRAFT_KEY } from "../../src/shared/consumer-storefront.ts";
import type { TestClient } from "../helpers/client.ts";

const PHONE = { width: 375, height: 740 };
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

Deno.test({
  name: "[e2e] at 375 px, after 30 s of polling, Check again and I have paid show the paid " +
    "order, with its timeline on the result page and the lookup",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const browser = await launchBrowser();
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const mlbb = games.find((g) => g.supplierName === "mlbb")!;
      const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const price = centsToDollars(
        computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
      );
      const buyer = consumerAt(server.url, "198.51.100.21");
      const context = await browser.newContext({ viewport: PHONE });
      // The page's timers run on a clock the test moves: 30 s of polling in a few real seconds.
      await context.clock.install();
      const page = await context.newPage();

      await t.step(
        "Check again after the polling stopped shows the payment HitPay reported",
        async () => {
          const orderId = await placeHitPayOrder(buyer, item.nameSupplier, price);
          await openResultPage(page, server.url, orderId, item.nameSupplier, price);
          await page.getByRole("heading", { name: "Payment has not been completed." }).waitFor();
          await timelineShows(page, ["Order placed", "Waiting for your payment"]);
          await pollUntilStopped(page);
          assert.match(await orderStatus(page), /Pending Payment/);

          await hitpaySim(server.url, "pay", [(await paymentRequestOf(server.url, orderId)).id]);
          await hitpaySim(server.url, "awaitWebhooks");
          assert.match(await orderStatus(page), /Pending Payment/, "nothing polls any more");
          const checkAgain = page.getByRole("button", { name: "Check again" });
          await checkAgain.click();
          await page.getByRole("heading", { name: "Thank you for your purchase." }).waitFor();
          assert.doesNotMatch(await orderStatus(page), /Pending Payment/);
          await timelineShows(page, ["Order placed", "Paid"]);
          await fitsThePhone(page);
          await saveScreenshot(page, "timeline-check-again-375");
        },
      );

      let orderId = "";
      await t.step("I have paid finds a payment whose webhook is late", async () => {
        orderId = await placeHitPayOrder(buyer, item.nameSupplier, price);
        await openResultPage(page, server.url, orderId, item.nameSupplier, price);
        await page.getByRole("heading", { name: "Payment has not been completed." }).waitFor();
        await pollUntilStopped(page);
        await hitpaySim(server.url, "holdWebhooks", [true]);
        try {
          await hitpaySim(server.url, "pay", [(await paymentRequestOf(server.url, orderId)).id]);
          const paid = page.getByRole("button", { name: "I have paid" });
          await paid.click();
          // The poll's own check of HitPay may have been moments ago: the page says when to retry.
          const note = page.locator(".ct-check-note");
          const heading = page.getByRole("heading", { name: "Thank you for your purchase." });
          // The one that does not come must not fail the test when its wait runs out.
          await Promise.race([
            note.waitFor().catch(() => {}),
            heading.waitFor().catch(() => {}),
          ]);
          if (await note.isVisible()) {
            const text = await note.innerText();
            const wait = text.match(
              /^We asked HitPay about this order a moment ago\. Please try again in (\d+) seconds?\.$/,
            );
            assert.ok(wait, text);
            await saveScreenshot(page, "timeline-limited-375");
            await sleep(Number(wait[1]) * 1000);
            await paid.click();
          }
          await heading.waitFor();
          // Paid, the order is followed towards its delivery again (the clock flows: the first
          // poll of the new round is 3 s away).
          await page.getByText("Checking your order status...").waitFor({ timeout: 2_000 });
          assert.match(
            await orderStatus(page),
            /Payment Received\. Pending Processing|Successful/,
          );
          await timelineShows(page, ["Order placed", "Paid"]);
          assert.equal(await paid.count(), 0, "paid: nothing more to ask HitPay");
          await fitsThePhone(page);
          await saveScreenshot(page, "timeline-i-have-paid-375");
        } finally {
          await hitpaySim(server.url, "holdWebhooks", [false]);
        }
      });

      await t.step("the order lookup shows the same timeline", async () => {
        const lookup = await context.newPage();
        await gotoHydrated(lookup, `${server.url}/consumers/order?order=${orderId}`);
        await lookup.getByLabel("Email Address").fill("ana@example.com");
        await lookup.getByRole("button", { name: "Find Order" }).click();
        await lookup.getByRole("heading", { name: "Thank you for your purchase." }).waitFor();
        await timelineShows(lookup, ["Order placed", "Paid"]);
        await fitsThePhone(lookup);
        await lookup.close();
      });
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});

/** A HitPay order for the special account's `denom` at `price`, as the top-up page places it. */
async function placeHitPayOrder(buyer: TestClient, denom: string, price: number) {
  const r = await buyer.post("/api/payment/hitpay/mlbb", paymentBody(denom, price));
  assert.equal(r.status, 201, r.text);
  return r.json.orderID as string;
}

/** /payment/success with the order's details saved, as the top-up page leaves them. */
async function openResultPage(
  page: Page,
  base: string,
  orderId: string,
  denom: string,
  price: number,
) {
  const draft: Partial<ConsumerOrderDraft> = {
    orderID: orderId,
    gameName: "Mobile Legends",
    userName: "Ana",
    ...SPECIAL_ACCOUNT,
    itemName: denom,
    amount: price,
    status: "pending-customer-payment",
  };
  await page.goto(`${base}/consumers/order`);
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [ORDER_DRAFT_KEY, JSON.stringify(draft)],
  );
  await gotoHydrated(page, `${base}/payment/success`);
}

/** Moves the page's clock 3 s at a time until the spec's 30 s of polling are over. */
async function pollUntilStopped(page: Page) {
  const checkAgain = page.getByRole("button", { name: "Check again" });
  for (let i = 0; i < 60 && !await checkAgain.isVisible(); i++) {
    await page.clock.fastForward(3_000);
    await sleep(250);
  }
  await checkAgain.waitFor({ timeout: 1_000 });
  assert.equal(await page.getByText("Checking your order status...").count(), 0);
}

async function orderStatus(page: Page): Promise<string> {
  return await page.locator(".ct-order-block div", { hasText: "Order Status" }).innerText();
}

/** The timeline under the order block lists `labels` first, in that order (read as it loads). */
async function timelineShows(page: Page, labels: string[]) {
  const shown = page.locator(".ct-timeline .ct-timeline-label");
  let texts: string[] = [];
  for (let i = 0; i < 50; i++) {
    texts = (await shown.allInnerTexts()).map((text) => text.trim());
    if (labels.every((label, at) => texts[at] === label)) break;
    await sleep(200);
  }
  assert.deepEqual(texts.slice(0, labels.length), labels);
  const below = await page.evaluate(() => {
    const block = document.querySelector(".ct-order-block")!.getBoundingClientRect();
    const timeline = document.querySelector(".ct-timeline")!.getBoundingClientRect();
    return timeline.top >= block.bottom;
  });
  assert.ok(below, "the timeline sits under the order block");
}

async function fitsThePhone(page: Page) {
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
    "the page fits 375 px without sideways scrolling",
  );
}
