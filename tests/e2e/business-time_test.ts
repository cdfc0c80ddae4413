// One clock for the consoles: the admin console and the reseller portal show every date in
// Singapore time, the business's zone (the dashboard's days and hours are Singapore's), and say
// so, whatever zone the viewer's browser is in. Here the browser is in New York, where the order
// below was placed on the evening of 1 May; in Singapore it was 4:30 am on 2 May.
// Screenshots at 375 and 1280 px go to SCREENSHOT_DIR when set.
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoAdminInBrowser,
  signInDemoResellerInBrowser,
} from "../helpers/browser.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import { BUSINESS_TIME_NOTE } from "../../src/shared/business-time.ts";

const PLACED_AT = new Date("2025-05-01T20:30:00Z");
const IN_SINGAPORE = "2 May 2025, 4:30 am";
const IN_NEW_YORK = "1 May 2025, 4:30 pm";

async function newYorkPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: "America/New_York",
  });
  return await context.newPage();
}

Deno.test({
  name: "[e2e] the admin console and the reseller portal show dates in Singapore time and say so",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase("pglite");
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const reseller = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      await db.insertInto("orders").values({
        id: "SGT-0001",
        buyer_type: "reseller",
        status: "successful",
        reseller_id: reseller.id,
        reseller_name: reseller.name,
        old_balance_cents: 100_000,
        new_balance_cents: 99_848,
        game: "Mobile Legends",
        package: "mlbb",
        item: "86 Diamonds",
        denom: "86",
        user_id: "11111111",
        server_id: "1111",
        user_name: "Night Owl",
        amount_cents: 152,
        cost: "1.40",
        supplier: "elephant",
        created_at: PLACED_AT,
      }).execute();
    });
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      await t.step("the reseller's Orders, at 1280 and 375 px", async () => {
        const page = await newYorkPage(browser);
        assert.equal(
          await page.evaluate(() => new Date("2025-05-01T20:30:00Z").getDate()),
          1,
          "the browser is in New York",
        );
        await signInDemoResellerInBrowser(page, server.url);
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 });
          await page.getByText(BUSINESS_TIME_NOTE, { exact: true }).waitFor();
          await page.getByRole("button", { name: "Orders" }).click();
          const row = page.locator("tr[data-order-id='SGT-0001']");
          await row.waitFor();
          assert.match(await row.innerText(), new RegExp(IN_SINGAPORE));
          assert.doesNotMatch(await row.innerText(), new RegExp(IN_NEW_YORK));
          assert.equal(await pageOverflow(page), 0);
          await saveScreenshot(page, `business-time-reseller-orders-${width}`);
        }
        await page.context().close();
      });

      await t.step("the admin's dashboard and Orders, at 1280 and 375 px", async () => {
        const page = await newYorkPage(browser);
        await signInDemoAdminInBrowser(page, server.url);
        const menu = page.getByRole("navigation", { name: "Admin menu" });
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 });
          await menu.getByRole("button", { name: "Dashboard", exact: true }).click();
          await page.getByText(BUSINESS_TIME_NOTE, { exact: true }).waitFor();
          await page.getByRole("img", { name: "Orders per hour, last 24 hours" }).waitFor();
          assert.equal(await pageOverflow(page), 0);
          await saveScreenshot(page, `business-time-admin-dashboard-${width}`);
          await menu.getByRole("button", { name: "Orders", exact: true }).click();
          const row = page.locator("tr[data-order-id='SGT-0001']");
          await row.waitFor();
          assert.match(await row.innerText(), new RegExp(IN_SINGAPORE));
          assert.equal(await pageOverflow(page), 0);
          await saveScreenshot(page, `business-time-admin-orders-${width}`);
        }
        await page.context().close();
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
