// Consumers buy every game, in a real browser at 375 px: a generic EliteDias game with a server dropdown (Genshin
// Impact) and a MooGold game (Free Fire) bought end to end through the one consumer path, then the
// receipts in Admin → Emails → Sent and the orders in Admin → Orders, Consumers tab. An invalid
// account cannot proceed; a game hidden from consumers answers 404.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser, waitForIslands } from "../helpers/browser.ts";
import { signInAdmin } from "../helpers/sessions.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";
import type { EmailsPage } from "../../src/shared/email-types.ts";

/** What the buyer types for one game's account; `fill` fills the game's own fields. */
interface Purchase {
  tile: string;
  path: string;
  fill(page: Page, userid: string): Promise<void>;
  email: string;
  /** The server's name chosen, for a game with a server list. */
  server?: string;
}

const noSideScroll = async (page: Page) =>
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
    "the page fits 375 px without sideways scrolling",
  );

/**
 * Buys the first item of a game from /consumers: an invalid account first (no items, Proceed never
 * enabled), then a valid one through review, HitPay's page and the result page. Answers the order
 * number and the price paid.
 */
async function buy(page: Page, base: string, p: Purchase): Promise<{ id: string; price: string }> {
  await page.goto(`${base}/consumers`);
  await page.getByRole("link", { name: new RegExp(p.tile) }).click();
  await page.waitForURL(`**${p.path}`);
  await waitForIslands(page);
  await noSideScroll(page);

  const verify = page.getByRole("button", { name: "Verify" });
  const proceed = page.getByRole("button", { name: "Proceed to Payment" });
  const items = page.locator(".ct-item");
  await p.fill(page, "invalid-42");
  await verify.click();
  await page.getByText("Invalid user").waitFor();
  assert.equal(await items.count(), 0, "no items for an invalid account");
  assert.equal(await proceed.count(), 0, "an invalid account cannot proceed");

  await p.fill(page, "812345678");
  await verify.click();
  await page.locator(".ct-verified").waitFor();
  assert.ok((await page.locator(".ct-verified").innerText()).trim().length > 0, "account name");
  const card = items.first();
  const price = (await card.locator(".item-price").innerText()).trim();
  assert.match(price, /^\$\d+\.\d{2}$/);
  await card.click();
  await proceed.click();
  await page.getByRole("heading", { name: "Review Your Order" }).waitFor();
  await page.getByLabel("First Name").fill("Ana");
  await page.getByLabel("Last Name").fill("Buyer");
  await page.getByLabel("Phone Number (with country code)").fill("+65 8123 4567");
  await page.getByLabel("Email Address", { exact: true }).fill(p.email);
  await page.getByLabel("Confirm Email Address").fill(p.email);
  await page.getByLabel("PayNow / GrabPay / ShopeePay Later / Atome").check();
  await noSideScroll(page);
  await page.getByRole("button", { name: "Complete Payment" }).click();

  await page.waitForURL(/\/__sim\/hitpay\//);
  assert.match(await page.locator(".amount").innerText(), new RegExp(`SGD ${price.slice(1)}`));
  await page.getByRole("button", { name: "Pay" }).click();
  await page.waitForURL("**/payment/success**");
  await page.getByText("Your order has been successfully delivered to your account.")
    .waitFor({ timeout: 30_000 });
  const block = (await page.locator(".ct-order-block").innerText()).replace(/\n/g, "\t");
  assert.ok(block.includes("User ID\t812345678"), block);
  // The server's name the buyer chose, never the supplier's code; no row for a game without one.
  if (p.server) assert.ok(block.includes(`Server\t${p.server}`), block);
  else assert.doesNotMatch(block, /Server/, block);
  assert.doesNotMatch(block, /os_/, block);
  assert.ok(block.includes(`Amount\t${price}`), block);
  const id = block.match(/Order Number\t(\S+)/)?.[1] ?? "";
  assert.ok(id, block);
  await noSideScroll(page);
  return { id, price };
}

Deno.test({
  name: "[e2e] at 375 px a buyer buys a game with a server list from EliteDias and one from " +
    "MooGold; receipts and orders reach the admin; a hidden game is 404",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb, {
      SIM_ELITEDIAS_COMPLETE_AFTER_MS: "0",
      SIM_MOOGOLD_COMPLETE_AFTER_MS: "0",
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });

      // The landing page's search narrows the tiles.
      await page.goto(`${server.url}/consumers`);
      await page.getByRole("searchbox", { name: "Search games" }).fill("genshin");
      await page.waitForFunction(() =>
        [...document.querySelectorAll(".ct-game-grid > li")].filter((li) =>
          !(li as HTMLElement).hidden
        ).length === 1
      );
      assert.ok(await page.getByRole("link", { name: /Genshin Impact/ }).isVisible());
      assert.ok(!await page.getByRole("link", { name: /Free Fire/ }).isVisible());

      const genshin = await buy(page, server.url, {
        tile: "Genshin Impact",
        path: "/consumers/genshin-impact",
        server: "Asia",
        email: "ana@example.com",
        async fill(page, userid) {
          await page.getByLabel("User ID").fill(userid);
          await page.getByLabel("Server").selectOption({ label: "Asia" });
        },
      });
      const freeFire = await buy(page, server.url, {
        tile: "Free Fire",
        path: "/consumers/free-fire",
        email: "bo@example.com",
        async fill(page, userid) {
          assert.equal(await page.getByLabel("Server ID").count(), 0, "Free Fire has no server");
          await page.getByLabel("User ID").fill(userid);
        },
      });
      assert.deepEqual(alerts, []);

      // The admin hides Valorant from consumers in the games editor, whose preview still shows
      // it; to consumers its page is 404.
      const console = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const secret = await signInDemoAdminInBrowser(console, server.url);
      const menu = console.getByRole("navigation", { name: "Admin menu" });
      await menu.getByRole("button", { name: "Games" }).click();
      await console.locator("tbody tr").filter({ hasText: "Valorant" }).click();
      await console.getByRole("tab", { name: "Settings" }).click();
      await console.getByLabel("Hidden from consumers (resellers can still buy it)").check();
      await console.getByRole("button", { name: "Save", exact: true }).click();
      await console.getByText("Game saved successfully.").waitFor();
      const preview = console.getByRole("link", { name: "Preview consumer page" });
      assert.equal(await preview.getAttribute("href"), "/admin/preview/valorant");
      const [previewPage] = await Promise.all([
        console.context().waitForEvent("page"),
        preview.click(),
      ]);
      await previewPage.getByText("This game is hidden from consumers").waitFor();
      await previewPage.close();
      assert.equal((await page.goto(`${server.url}/consumers/valorant`))?.status(), 404);

      // The admin sees both receipts in Emails → Sent and both orders in Orders → Consumers.
      const { client: admin } = await signInAdmin(
        server.url,
        DEMO_ADMIN.email,
        DEMO_ADMIN.password,
        secret,
        1,
      );
      const delivered = [genshin, freeFire].map((o) => `Order ${o.id} delivered`);
      for (let i = 0; i < 50; i++) {
        const sent = (await admin.get("/api/sent-emails?page=1")).json as EmailsPage;
        if (delivered.every((s) => sent.emails.some((e) => e.subject === s))) break;
        await new Promise((ok) => setTimeout(ok, 200));
      }
      await menu.getByRole("button", { name: "Emails" }).click();
      await console.getByRole("tab", { name: "Sent" }).click();
      for (const subject of delivered) {
        await console.getByRole("cell", { name: subject, exact: true }).waitFor();
      }
      await menu.getByRole("button", { name: "Orders", exact: true }).click();
      const main = console.locator("main[data-view='orders']");
      await main.getByRole("tab", { name: "Consumers" }).click();
      for (const [order, game] of [[genshin, "Genshin Impact"], [freeFire, "Free Fire"]] as const) {
        const row = main.locator(`tr[data-order-id="${order.id}"]`);
        await row.waitFor();
        assert.match(await row.innerText(), new RegExp(game));
        assert.match(await row.innerText(), /Success/);
      }
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
