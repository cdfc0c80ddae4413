// The reseller's order confirmation (spec §2: 'Proceed with: {item} (${price})?' with a 'Place
// Order' button) also shows the player the order goes to, as verified: the verified name, the User
// ID and the server (a named server by its name). Checked at 1280 px on a game with a server list
// and at 375 px on Mobile Legends (a Server ID typed); screenshots go to SCREENSHOT_DIR when set.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoResellerInBrowser,
} from "../helpers/browser.ts";

/** The dialog's player details as label → value. */
async function playerDetails(page: Page): Promise<Record<string, string>> {
  const details = page.getByRole("dialog").getByRole("group", { name: "Player" });
  const labels = await details.locator("dt").allInnerTexts();
  const values = await details.locator("dd").allInnerTexts();
  return Object.fromEntries(labels.map((label, i) => [label.trim(), values[i].trim()]));
}

Deno.test({
  name: "[e2e] the reseller's order confirmation names the player the order goes to",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signInDemoResellerInBrowser(page, server.url);

      await t.step("Genshin Impact at 1280 px: the named server", async () => {
        await page.locator(".rs-game", { hasText: "Genshin Impact" }).click();
        await page.getByRole("heading", { name: "Genshin Impact" }).waitFor();
        await page.getByLabel("User ID").fill("800123456");
        await page.getByLabel("Server").selectOption({ label: "Asia" });
        await page.getByRole("button", { name: "Verify" }).click();
        const verified = (await page.locator(".rs-verified").innerText()).trim();
        const card = page.locator(".rs-item").first();
        const item = (await card.locator(".item-name").innerText()).trim();
        const price = (await card.locator(".item-price").innerText()).trim();
        await card.click();
        const dialog = page.getByRole("dialog");
        assert.equal(
          (await dialog.locator("p").innerText()).trim(),
          `Proceed with: ${item} (${price})?`,
          "the spec's question, verbatim",
        );
        assert.deepEqual(await playerDetails(page), {
          "User Name": verified,
          "User ID": "800123456",
          Server: "Asia",
        });
        assert.equal(await pageOverflow(page), 0);
        await saveScreenshot(page, "order-confirmation-1280");
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await page.getByRole("button", { name: "Back" }).click();
      });

      await t.step("Mobile Legends at 375 px: the Server ID typed", async () => {
        await page.setViewportSize({ width: 375, height: 800 });
        await page.locator(".rs-game", { hasText: "Mobile Legends" }).click();
        await page.getByRole("heading", { name: "Mobile Legends" }).waitFor();
        await page.getByLabel("User ID").fill("11111111");
        await page.getByLabel("Server ID").fill("1111");
        await page.getByRole("button", { name: "Verify" }).click();
        const verified = (await page.locator(".rs-verified").innerText()).trim();
        const card = page.locator(".rs-item").first();
        const item = (await card.locator(".item-name").innerText()).trim();
        await card.click();
        const dialog = page.getByRole("dialog");
        assert.match(await dialog.locator("p").innerText(), new RegExp(`^Proceed with: ${item} `));
        assert.deepEqual(await playerDetails(page), {
          "User Name": verified,
          "User ID": "11111111",
          "Server ID": "1111",
        });
        const box = await dialog.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 375, "the dialog fits the phone");
        await saveScreenshot(page, "order-confirmation-375");
        await dialog.getByRole("button", { name: "Cancel" }).click();
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
