// A reseller creates a key on My Account (its secret shown once, with a
// Copy button that puts it on the clipboard), the key works on /api/v1, the reseller revokes it and
// it stops working; an admin revokes one key, then all the others at once. Screenshots
// at 375 and 1280 px go to SCREENS_DIR when set. The reference page has its own test
// (reseller-api-reference_test.ts).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  signInDemoAdminInBrowser,
  signInDemoResellerInBrowser,
} from "../helpers/browser.ts";

const SCREENS = Deno.env.get("SCREENS_DIR");

async function shoot(page: Page, name: string) {
  if (!SCREENS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

Deno.test({
  name: "[e2e] a reseller creates, uses and revokes API keys, an admin revokes one and then all",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("dialog", (dialog) => dialog.accept());
      await signInDemoResellerInBrowser(page, server.url);
      await page.getByRole("button", { name: "Account" }).click();
      const keys = page.getByRole("region", { name: "API keys" });
      await keys.getByText("No API keys yet.").waitFor();

      await keys.getByLabel("Key name").fill("My shop");
      await keys.getByRole("button", { name: "Create key" }).click();
      await keys.getByText("Copy this key now: it will not be shown again.").waitFor();
      const secret = (await keys.locator(".rs-secret").innerText()).trim();
      assert.match(secret, /^tk_live_/);
      // Copy puts the key on the clipboard and says so; the keyboard works it too.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: server.url,
      });
      const copy = keys.getByRole("button", { name: "Copy key" });
      await copy.focus();
      await page.keyboard.press("Enter");
      await keys.getByRole("status").getByText("Copied", { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      const row = keys.locator("tbody tr");
      await row.first().waitFor();
      assert.equal(await row.count(), 1);
      assert.match(await row.first().innerText(), /My shop\s+tk_live_[\w-]{4}…[\s\S]*Never/);
      await shoot(page, "account-api-keys");

      const balance = await fetch(`${server.url}/api/v1/balance`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      assert.equal(balance.status, 200);
      assert.equal((await balance.json()).balance, 1000);

      await keys.getByRole("button", { name: "Revoke" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
      await keys.getByText(/^Revoked /).waitFor();
      const refused = await fetch(`${server.url}/api/v1/balance`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      assert.equal(refused.status, 401);
      await refused.body?.cancel();

      // A second key, revoked by an admin from the reseller's edit page, then two more, revoked
      // by the admin's "Revoke all keys".
      const createKey = async (name: string, rows: number) => {
        await keys.getByLabel("Key name").fill(name);
        await keys.getByRole("button", { name: "Create key" }).click();
        await row.nth(rows - 1).waitFor();
        return (await keys.locator(".rs-secret").innerText()).trim();
      };
      const second = await createKey("Bot two", 2);
      const third = await createKey("Bot three", 3);
      await createKey("Bot four", 4);
      const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      admin.on("dialog", (dialog) => dialog.accept());
      await signInDemoAdminInBrowser(admin, server.url);
      await admin.getByRole("navigation", { name: "Admin menu" })
        .getByRole("button", { name: "Users" }).click();
      await admin.locator("tbody tr").filter({
        has: admin.getByRole("cell", { name: "Demo Reseller", exact: true }),
      }).getByRole("cell", { name: "Demo Reseller", exact: true }).click();
      const adminKeys = admin.getByRole("region", { name: "API keys" });
      await adminKeys.getByText("Bot two").waitFor();
      assert.equal(await adminKeys.getByRole("button", { name: "Create key" }).count(), 0);
      assert.equal(await adminKeys.getByText(/^Revoked /).count(), 1, "My shop is revoked");
      await adminKeys.locator("tbody tr").filter({ hasText: "Bot two" })
        .getByRole("button", { name: "Revoke", exact: true }).click();
      await admin.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
      await adminKeys.getByText(/^Revoked /).nth(1).waitFor();
      await shoot(admin, "admin-reseller-api-keys");
      await adminKeys.getByRole("button", { name: "Revoke all keys" }).click();
      const confirm = admin.getByRole("dialog");
      await confirm.getByText(
        "Revoke all 2 live API keys? Programs using them stop working at once.",
      )
        .waitFor();
      await confirm.getByRole("button", { name: "Revoke all" }).click();
      await adminKeys.getByText(/^Revoked /).nth(3).waitFor();
      assert.equal(await adminKeys.getByRole("button", { name: /^Revoke/ }).count(), 0);
      for (const revoked of [second, third]) {
        const refused = await fetch(`${server.url}/api/v1/balance`, {
          headers: { authorization: `Bearer ${revoked}` },
        });
        assert.equal(refused.status, 401);
        await refused.body?.cancel();
      }
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
