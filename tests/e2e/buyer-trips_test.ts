// What buyers on a 375 px phone tripped over: Try again on a MooGold game, HitPay's redirect opened
// in a browser that did not start the checkout, a bank transfer that read as a rejection (and was
// offered with no account to pay into), a bare "Not found" for an unknown game, and a form used
// before its script ran. Screenshots at 375 and 1280 px go to SCREENSHOT_DIR when it is set.
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  gotoHydrated,
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  waitForIslands,
} from "../helpers/browser.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { offerBankTransfer } from "../helpers/consumer-payments.ts";
import { ORDER_DRAFT_KEY } from "../../src/shared/consumer-storefront.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

/** Verifies `account` on a game's page and picks its first item; returns the price shown. */
async function pickFirstItem(
  page: Page,
  base: string,
  slug: string,
  account: Record<string, string>,
): Promise<string> {
  await gotoHydrated(page, `${base}/consumers/${slug}`);
  for (const [label, value] of Object.entries(account)) await page.getByLabel(label).fill(value);
  await page.getByRole("button", { name: "Verify" }).click();
  await page.locator(".ct-verified").waitFor();
  const card = page.locator(".ct-item").first();
  const price = (await card.locator(".item-price").innerText()).trim();
  await card.click();
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  return price;
}

/** Fills the billing details of the review step. */
async function fillBilling(page: Page) {
  await page.getByLabel("First Name").fill("Ana");
  await page.getByLabel("Phone Number (with country code)").fill("+65 8123 4567");
  await page.getByLabel("Email Address", { exact: true }).fill("ana@example.com");
  await page.getByLabel("Confirm Email Address").fill("ana@example.com");
}

async function savedOrderId(page: Page): Promise<string> {
  const draft = await page.evaluate((key) => localStorage.getItem(key) ?? "null", ORDER_DRAFT_KEY);
  return JSON.parse(draft).orderID;
}

/** Screenshots of `url` at 375 and 1280 px in a fresh browser context (nothing saved in it). */
async function screenshotsOf(browser: Browser, url: string, name: string) {
  for (const [viewport, width] of [[PHONE, 375], [DESKTOP, 1280]] as const) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await gotoHydrated(page, url);
    await page.locator(".ct-result, .ct-transfer, main").first().waitFor();
    await saveScreenshot(page, `${name}-${width}`);
    await context.close();
  }
}

Deno.test({
  name: "[e2e] at 375 px: Try again on a MooGold game, the result page in another browser, " +
    "bank transfer as instructions, a branded 404, and a form used before its script ran",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const admin = await signInDemoAdmin(server.url);
      const page = await browser.newPage({ viewport: PHONE });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });

      await t.step("Try again on a MooGold game pays; a refusal's reason wraps", async () => {
        const price = await pickFirstItem(page, server.url, "free-fire", { "User ID": "812345" });
        await fillBilling(page);
        await page.getByLabel(/PayNow/).check();
        await page.getByRole("button", { name: "Complete Payment" }).click();
        await page.waitForURL(/\/__sim\/hitpay\//);
        const cancelled = await savedOrderId(page);
        await page.getByRole("button", { name: "Cancel" }).click();
        await page.getByRole("heading", { name: "Payment cancelled." }).waitFor();
        await page.getByRole("button", { name: "Try again" }).click();
        await page.waitForURL(/\/__sim\/hitpay\//);
        assert.match(await page.locator(".amount").innerText(), new RegExp(price.slice(1)));
        const retried = await savedOrderId(page);
        assert.notEqual(retried, cancelled);

        // The item is withdrawn meanwhile: Try again is refused, and the reason fits the phone.
        await page.getByRole("button", { name: "Cancel" }).click();
        await page.getByRole("heading", { name: "Payment cancelled." }).waitFor();
        const games = (await admin.get("/api/admin/games")).json as GameDto[];
        const freeFire = games.find((g) => g.name === "Free Fire")!;
        const put = await admin.request("PUT", `/api/game/${freeFire._id}`, {
          ...freeFire,
          gameItems: freeFire.gameItems.map((i, n) =>
            n === 0 ? { ...i, isHiddenConsumer: true } : i
          ),
        });
        assert.equal(put.status, 200, put.text);
        await page.getByRole("button", { name: "Try again" }).click();
        await page.locator(".ct-payment-error").getByText(/no longer be paid again/).waitFor();
        assert.equal(await pageOverflow(page), 0, "nothing sticks out sideways");
        assert.deepEqual(alerts, []);
      });

      await t.step(
        "HitPay's redirect in another browser shows the order, not its player",
        async () => {
          const price = await pickFirstItem(page, server.url, "mobile-legends", {
            "User ID": "22222222",
            "Server ID": "2222",
          });
          await fillBilling(page);
          await page.getByLabel(/PayNow/).check();
          await page.getByRole("button", { name: "Complete Payment" }).click();
          await page.waitForURL(/\/__sim\/hitpay\//);
          const orderId = await savedOrderId(page);
          await page.getByRole("button", { name: "Pay" }).click();
          await page.waitForURL("**/payment/success**");
          const redirect = page.url();
          assert.match(redirect, /reference=/);

          const other = await browser.newContext({ viewport: PHONE });
          const elsewhere = await other.newPage();
          await gotoHydrated(elsewhere, redirect);
          await elsewhere.getByRole("heading", { name: "Thank you for your purchase." }).waitFor();
          const block = await elsewhere.locator(".ct-order-block").innerText();
          assert.ok(block.includes(orderId), block);
          assert.ok(block.includes(price), block);
          assert.doesNotMatch(block, /User ID|User Name|22222222/, "no player without the draft");
          const find = elsewhere.locator(".ct-find-order").getByRole("link", {
            name: "Find my order",
          });
          assert.equal(await find.getAttribute("href"), `/consumers/order?order=${orderId}`);
          assert.equal(await pageOverflow(elsewhere), 0);
          await other.close();
          await screenshotsOf(browser, redirect, "result-other-browser");
        },
      );

      await t.step("bank transfer is offered with an account only, as instructions", async () => {
        const account = { "User ID": "22222222", "Server ID": "2222" };
        await pickFirstItem(page, server.url, "mobile-legends", account);
        assert.equal(await page.getByLabel(/Manual bank transfer/).count(), 0, "no account yet");
        await offerBankTransfer(admin);
        const price = await pickFirstItem(page, server.url, "mobile-legends", account);
        await fillBilling(page);
        await page.getByLabel(/Manual bank transfer/).check();
        await page.getByRole("button", { name: "Complete Payment" }).click();
        await page.waitForURL("**/payment/success**");
        const orderId = await savedOrderId(page);
        await page.locator(".ct-transfer").waitFor();
        const text = await page.locator(".ct-result").innerText();
        assert.doesNotMatch(text, /might have been rejected|has not been completed/);
        assert.match(text, /Thank you for your order\./);
        assert.match(text, /Transfers are usually confirmed within a few hours/);
        const transfer = (await page.locator(".ct-transfer").innerText()).replace(/\n/g, "\t");
        for (
          const row of ["Account Number\t072-123456-7", `Amount\t${price}`, `Reference\t${orderId}`]
        ) {
          assert.ok(transfer.includes(row), `${row} in ${transfer}`);
        }
        assert.equal(await pageOverflow(page), 0);
        await saveScreenshot(page, "bank-transfer-375");
        await page.setViewportSize(DESKTOP);
        await saveScreenshot(page, "bank-transfer-1280");
        await page.setViewportSize(PHONE);
      });

      await t.step("an unknown game is a branded 404 with the way back", async () => {
        const answer = await page.goto(`${server.url}/consumers/no-such-game`);
        assert.equal(answer?.status(), 404);
        assert.equal(await page.title(), "Game not found | TopUp");
        assert.equal(await page.getAttribute("html", "lang"), "en");
        await page.getByRole("heading", { name: "Game not found" }).waitFor();
        const back = page.getByRole("link", { name: "Back to Games" }).first();
        assert.equal(await back.getAttribute("href"), "/consumers");
        assert.equal(await pageOverflow(page), 0);
        await screenshotsOf(browser, `${server.url}/consumers/no-such-game`, "unknown-game");
      });

      await t.step(
        "typed before the script runs: kept, and Verify waits instead of reloading",
        async () => {
          const early = await browser.newContext({ viewport: PHONE });
          const slow = await early.newPage();
          let release!: () => void;
          const scripts = new Promise<void>((ok) => release = ok);
          await slow.route("**/_astro/*.js", async (route) => {
            await scripts;
            await route.continue();
          });
          await slow.goto(`${server.url}/consumers/mobile-legends`, { waitUntil: "commit" });
          await slow.getByLabel("User ID").fill("11111111");
          await slow.getByLabel("Server ID").fill("1111");
          const verify = slow.getByRole("button", { name: "Verify" });
          assert.equal(await verify.isDisabled(), true, "Verify waits for the script");
          await verify.click({ force: true });
          await slow.keyboard.press("Enter");
          assert.equal(new URL(slow.url()).search, "", "the form was not posted natively");
          release();
          await waitForIslands(slow);
          assert.equal(await slow.getByLabel("User ID").inputValue(), "11111111");
          await verify.click();
          await slow.locator(".ct-verified").waitFor();
          await slow.locator(".ct-item").first().click();
          assert.equal(
            await slow.getByRole("button", { name: "Proceed to Payment" }).isEnabled(),
            true,
          );
          await early.close();
        },
      );
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
