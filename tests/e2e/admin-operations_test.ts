// Admin → Operations in a real browser: the server reads the suppliers' balances as it
// starts; MooGold's simulator starts below the alert threshold, so the screen shows it low with
// its week's trend (readings seeded before the start), the alert emailed to the admins, and the
// job queue. The dashboard shows the same balance cards; Settings › Alerts saves a threshold.
// Screenshots at 375 and 1280 px when SCREENSHOT_DIR is set.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoAdminInBrowser,
} from "../helpers/browser.ts";

const HOUR_MS = 3600_000;

Deno.test({
  name: "[e2e] Operations: a low supplier balance with its trend, the alert sent, the job queue; " +
    "the dashboard's balance cards; Settings › Alerts",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase();
    // A week of MooGold readings falling from 400 to 60 USD, one every 6 hours.
    await withHandle(tdb, async (db) => {
      const now = Date.now();
      await db.insertInto("supplier_balance_readings").values(
        Array.from({ length: 28 }, (_, i) => ({
          vendor: "moogold",
          balance_cents: 40_000 - i * 1_250,
          currency: "USD",
          read_at: new Date(now - (28 - i) * 6 * HOUR_MS),
        })),
      ).execute();
    });
    const server = await startTestServer(tdb, { SIM_MOOGOLD_BALANCE: "40.00" });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const menu = page.getByRole("navigation", { name: "Admin menu" });
      const main = page.locator("main[data-view]");

      await t.step(
        "the console's Operations view shows the low balance and its alert",
        async () => {
          await signInDemoAdminInBrowser(page, server.url);
          await menu.getByRole("button", { name: "Operations", exact: true }).click();
          await main.getByRole("heading", { name: "Operations", exact: true }).waitFor();
          const alert = main.getByText("MooGold balance 40.00 USD is below 100.00 USD");
          // The start's watch round may end after the first load: Refresh until it is in.
          for (let i = 0; i < 50 && !await alert.isVisible(); i++) {
            await main.getByRole("button", { name: "Refresh" }).click();
            await page.waitForTimeout(200);
          }
          await alert.waitFor();
          assert.match(
            await main.locator(".op-alerts li").filter({ hasText: "MooGold balance" }).innerText(),
            /emailed to 1 admin$/m,
          );
          const moogold = main.getByRole("article", { name: "MooGold balance" });
          assert.match(await moogold.innerText(), /Below threshold/);
          assert.match(await moogold.innerText(), /40\.00 USD/);
          assert.match(await moogold.innerText(), /−\d+\.\d{2} USD in 24 h/);
          assert.match(await moogold.innerText(), /Alert below 100\.00 USD/);
          await moogold.getByRole("img", {
            name: /MooGold balance over the past week, 2\d hourly readings/,
          })
            .waitFor();
          const elitedias = main.getByRole("article", { name: "EliteDias balance" });
          assert.match(await elitedias.innerText(), /1,000\.00 SGD/);
          assert.doesNotMatch(await elitedias.innerText(), /Below threshold/);

          assert.match(
            await main.locator(".db-card").nth(1).innerText(),
            /Jobs due\s+\d+\s+alert above 100/,
          );
          assert.match(await main.locator(".db-card").nth(2).innerText(), /Needs review\s+0/);
          // This server's readiness, as /readyz answers it: every part ok.
          const checks = main.locator(".op-checks");
          assert.match(await checks.innerText(), /database[\s\S]*migrations[\s\S]*jobs/);
          assert.equal(await checks.locator(".op-bad").count(), 0);
          const queue = main.getByRole("table", { name: "Job queue per kind" });
          const noJobs = main.getByText("No jobs waiting.");
          assert.ok(await queue.isVisible() || await noJobs.isVisible());
          await main.getByRole("heading", { name: "Failed jobs" }).waitFor();
          await main.getByText("No failed jobs.").waitFor();
          assert.equal(await pageOverflow(page), 0);
          await saveScreenshot(page, "operations-1280");
        },
      );

      await t.step("at 375 px nothing sticks out of the window", async () => {
        await page.setViewportSize({ width: 375, height: 800 });
        // The console lays itself out for a phone once it has seen the narrow window.
        await page.waitForFunction(() => document.querySelector(".shell.mobile") !== null);
        await main.getByRole("article", { name: "MooGold balance" }).waitFor();
        assert.equal(await pageOverflow(page), 0);
        await saveScreenshot(page, "operations-375");
        await page.setViewportSize({ width: 1280, height: 900 });
      });

      await t.step("the dashboard shows the same balance cards", async () => {
        await menu.getByRole("button", { name: "Dashboard", exact: true }).click();
        const moogold = main.getByRole("article", { name: "MooGold balance" });
        await moogold.waitFor();
        assert.match(await moogold.innerText(), /40\.00 USD/);
        await saveScreenshot(page, "dashboard-1280");
      });

      await t.step(
        "Settings › Alerts saves a threshold the Operations view then uses",
        async () => {
          await menu.getByRole("button", { name: "Settings", exact: true }).click();
          const form = main.getByRole("form", { name: "Alerts" });
          const field = form.getByLabel("MooGold balance below (USD)");
          await field.waitFor();
          await page.waitForFunction(() =>
            (document.querySelector(".ap-alerts input") as HTMLInputElement | null)?.value === "100"
          );
          await field.fill("25.5");
          await form.getByRole("button", { name: "Save" }).click();
          await form.getByText("Saved").waitFor();
          await saveScreenshot(page, "settings-alerts-1280");

          await menu.getByRole("button", { name: "Operations", exact: true }).click();
          const moogold = main.getByRole("article", { name: "MooGold balance" });
          await moogold.waitFor();
          assert.match(await moogold.innerText(), /Alert below 25\.50 USD/);
          assert.doesNotMatch(await moogold.innerText(), /Below threshold/);
        },
      );
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
