// The reseller's Orders table (spec §2: "The table scrolls sideways when the window is 1035 wide or
// less"): above 1035 px (1280 and 1036 here) it fits its page with the longest values the demo
// games give (Genshin's "1980 + 260 Genesis Crystals", an open order's refresh button, five-figure
// balances), and at 1035 px and on a phone it scrolls sideways in its own box, never the page.
// Screenshots at 375, 1035, 1036 and 1280 px go to SCREENSHOT_DIR when set.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoResellerInBrowser,
} from "../helpers/browser.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import type { NewOrder } from "../../src/db/schema.ts";

const GAMES = [
  { game: "Genshin Impact", item: "1980 + 260 Genesis Crystals", user: "MoonlitWanderer417" },
  { game: "Honkai: Star Rail", item: "300 + 30 Oneiric Shards", user: "StellarTrailblazer88" },
  { game: "Mobile Legends", item: "Weekly Diamond Pass", user: "LegendaryTank2024" },
  { game: "PUBG Mobile", item: "Royale Pass", user: "ShadowReaper906" },
];

/** A page of orders with the widest values a reseller meets. */
function order(i: number, reseller: { id: string; name: string }): NewOrder {
  const g = GAMES[i % GAMES.length];
  return {
    id: `RMX${String(i).padStart(2, "0")}VIMU21JW3FG2C`,
    buyer_type: "reseller",
    status: i % 3 === 0 ? "pending" : "successful",
    reseller_id: reseller.id,
    reseller_name: reseller.name,
    old_balance_cents: 1_234_567 + i * 3_910,
    new_balance_cents: 1_234_567 + (i - 1) * 3_910,
    game: g.game,
    package: "",
    item: g.item,
    denom: g.item,
    user_id: String(812_345_678 + i),
    server_id: "os_asia",
    user_name: g.user,
    amount_cents: 3_910,
    cost: "27.60",
    supplier: "elephant",
    // Two-digit days and hours: the widest dates (28 Dec 2025, 12:59 pm in Singapore).
    created_at: new Date(Date.parse("2025-12-28T04:59:00Z") - i * 60_000),
  };
}

/** The table's width, its box's visible width and how far the box scrolls sideways. */
async function tableWidths(page: Page) {
  return await page.locator(".rs-orders-table").evaluate((table) => {
    const box = table.parentElement!;
    return {
      table: Math.ceil(table.getBoundingClientRect().width),
      box: box.clientWidth,
      scrolls: box.scrollWidth - box.clientWidth,
      overflowX: getComputedStyle(box).overflowX,
    };
  });
}

Deno.test({
  name: "[e2e] the reseller's Orders table fits any window wider than 1035 px and scrolls in its " +
    "box at 1035 px or less",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const row = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      const reseller = { id: row.id, name: row.name };
      await db.insertInto("orders").values(
        Array.from({ length: 20 }, (_, i) => order(i, reseller)),
      ).execute();
    });
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signInDemoResellerInBrowser(page, server.url);
      await page.getByRole("button", { name: "Orders" }).click();
      await page.locator("tbody tr[data-order-id]").nth(19).waitFor();

      for (const width of [1280, 1036]) {
        await page.setViewportSize({ width, height: 900 });
        const wide = await tableWidths(page);
        assert.ok(wide.table <= wide.box, `at ${width} px the table fits: ${JSON.stringify(wide)}`);
        assert.equal(wide.scrolls, 0, `nothing to scroll sideways at ${width} px`);
        assert.equal(await pageOverflow(page), 0);
        await saveScreenshot(page, `reseller-orders-${width}`);
      }

      for (const width of [1035, 375]) {
        await page.setViewportSize({ width, height: 900 });
        const narrow = await tableWidths(page);
        assert.equal(narrow.overflowX, "auto", `the box scrolls sideways at ${width} px`);
        assert.equal(await pageOverflow(page), 0, `the page itself does not, at ${width} px`);
        await saveScreenshot(page, `reseller-orders-${width}`);
      }
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
