// The admin Orders screen in a real browser (spec §2 Admin console 'Orders', §9 page size and
// pagination sibling ranges): both tabs, a status refreshed until the supplier delivers, the
// Loading overlay, the server-side search, a manual payment confirmed, and Export.
// With SCREENS_DIR set, screenshots at 1280 and 375 px are saved there.
import assert from "node:assert/strict";
import { format } from "date-fns";
import type { Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import type { NewOrder } from "../../src/db/schema.ts";

/** Delivered orders from last year: with the two placed now, 11 pages of 20. */
const OLD_ORDERS = 200;
const SCREENS_DIR = Deno.env.get("SCREENS_DIR");

function oldOrder(i: number, reseller: { id: string; name: string }): NewOrder {
  return {
    id: `OLD-${String(i).padStart(4, "0")}`,
    buyer_type: "reseller",
    status: "successful",
    reseller_id: reseller.id,
    reseller_name: reseller.name,
    old_balance_cents: 500_000,
    new_balance_cents: 499_848,
    game: "Mobile Legends",
    package: "mlbb",
    item: "86 Diamonds",
    denom: "86",
    user_id: String(40_000_000 + i),
    server_id: "4001",
    user_name: i === 7 ? "Quokka Seven" : `Old Player ${i}`,
    amount_cents: 152,
    cost: "1.40",
    supplier: "elephant",
    created_at: new Date(Date.parse("2025-05-01T12:00:00Z") - i * 3_600_000),
  };
}

const MANUAL_ORDER: NewOrder = {
  id: "MANUAL-0001",
  buyer_type: "consumer",
  status: "pending-customer-payment",
  consumer_name: "Mia Tan",
  consumer_email: "mia@shop.test",
  consumer_phone: "+65 9123 4567",
  game: "Mobile Legends",
  package: "mlbb",
  item: "172 Diamonds",
  denom: "172",
  user_id: "22222222",
  server_id: "2222",
  user_name: "MiaPlays",
  amount_cents: 320,
  cost: "2.9",
  supplier: "elephant",
  payment_provider: "manual",
  created_at: new Date("2025-05-02T09:30:00Z"),
};

/** The visible page buttons' labels, gaps as "…". */
async function pageLabels(page: Page): Promise<string[]> {
  const items = await page.locator("nav[aria-label='Pages'] > *").allInnerTexts();
  return items.map((s) => s.trim()).filter((s) => s !== "‹" && s !== "›");
}

/** How far the page itself scrolls sideways (0: only boxes meant to scroll do). */
async function pageOverflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENS_DIR) return;
  await Deno.mkdir(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}

Deno.test({
  name: "[e2e] an admin pages and searches both orders tabs, refreshes a status until delivered, " +
    "confirms a manual payment and exports",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const row = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      const reseller = { id: row.id, name: row.name };
      await db.insertInto("orders").values(
        Array.from({ length: OLD_ORDERS }, (_, i) => oldOrder(i, reseller)),
      ).execute();
      await db.insertInto("orders").values(MANUAL_ORDER).execute();
    });
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      // Two open orders placed by the reseller, as its portal would. The supplier holds them until
      // the refresh below (it would deliver them 3 s after they arrive, racing the admin's
      // sign-in, and "Refresh All Status" shows only while two are open).
      await simControl(server.url, "elitedias", "setKnobs", [], { completeAfterMs: 3_600_000 });
      const reseller = await signInDemoReseller(server.url);
      const { body } = await pubgOrder(reseller);
      const placed: string[] = [];
      for (const key of ["e2e-order-1", "e2e-order-2"]) {
        const r = await reseller.post("/api/reseller/place_order", body, {
          "idempotency-key": key,
        });
        assert.equal(r.status, 201, r.text);
        placed.push(r.json.order.id);
      }

      const page = await browser.newPage({
        viewport: { width: 1280, height: 900 },
        acceptDownloads: true,
      });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      const listCalls: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/orders") listCalls.push(request.url());
      });
      await signInDemoAdminInBrowser(page, server.url);

      // The Loading overlay shows until the orders arrive: hold the first answer back.
      let release = () => {};
      const held = new Promise<void>((resolve) => release = resolve);
      const ordersCall = (url: URL) => url.pathname === "/api/orders";
      await page.route(ordersCall, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("navigation", { name: "Admin menu" })
        .getByRole("button", { name: "Orders", exact: true }).click();
      const main = page.locator("main[data-view='orders']");
      await main.getByRole("heading", { name: "Orders", exact: true }).waitFor();
      const overlay = main.locator(".ao-overlay");
      await overlay.waitFor();
      assert.equal((await overlay.innerText()).trim(), "Loading...");
      release();
      await page.unroute(ordersCall);
      await overlay.waitFor({ state: "detached" });

      const rows = main.locator("tbody tr[data-order-id]");
      assert.equal(await rows.count(), 20, "20 a page");
      assert.deepEqual(
        (await main.locator("thead th").allInnerTexts()).map((s) => s.trim()),
        [
          "ID",
          "Status",
          "Date",
          "Game",
          "Package",
          "User",
          "Item",
          "Amount",
          "Reseller",
          "Old Balance",
          "New Balance",
        ],
      );
      assert.deepEqual(
        await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.dataset.orderId)),
        [...placed].reverse(),
        "newest first",
      );
      assert.deepEqual(await pageLabels(page), ["1", "2", "3", "…", "11"]);
      await main.getByPlaceholder("Search order...").waitFor();
      const refreshAll = main.getByRole("button", { name: "Refresh All Status" });
      await refreshAll.waitFor();
      assert.equal(await pageOverflow(page), 0, "at 1280 px too, beside the menu");
      await screenshot(page, "orders-resellers-1280");

      // Refresh one order until the supplier delivers it: one open order left, no Refresh All.
      await simControl(server.url, "elitedias", "setKnobs", [], { completeAfterMs: 0 });
      const target = main.locator(`tr[data-order-id="${placed[0]}"]`);
      const status = target.locator(".rs-status");
      assert.match((await status.innerText()).trim(), /^(New|Pending)$/);
      assert.equal(await status.locator("svg").count(), 1, "an hourglass icon, not an emoji");
      const deadline = Date.now() + 30_000;
      while ((await status.innerText()).trim() !== "Success") {
        assert.ok(Date.now() < deadline, `still ${await status.innerText()}`);
        await target.getByRole("button", { name: "Refresh status" }).click();
        await main.getByText("Refreshing order status...").waitFor({ state: "detached" });
        await overlay.waitFor({ state: "detached" });
        await page.waitForTimeout(300);
      }
      assert.equal(await target.getByRole("button", { name: "Refresh status" }).count(), 0);
      const stillOpen = (await main.locator(".rs-status").allInnerTexts())
        .filter((s) => /^(New|Pending)$/.test(s.trim())).length;
      assert.equal(await refreshAll.count(), stillOpen > 1 ? 1 : 0);

      // Popovers: the user's ids and the amount's cost.
      await target.getByRole("button", { name: "User details" }).click();
      const userPopup = page.getByRole("dialog", { name: "User details" });
      assert.match(await userPopup.innerText(), /User ID: 5551234/);
      await page.keyboard.press("Escape");

      // Pagination: sibling range 2 on desktop, 1 below 768 px, 0 below 465 px (spec §9).
      await page.locator("nav[aria-label='Pages']").getByRole("button", { name: "3" }).click();
      await overlay.waitFor({ state: "detached" });
      await page.locator("nav[aria-label='Pages']").getByRole("button", { name: "5" }).click();
      await page.locator("nav[aria-label='Pages'] [aria-current='page']").getByText("5").waitFor();
      assert.deepEqual(await pageLabels(page), ["1", "…", "3", "4", "5", "6", "7", "…", "11"]);
      await page.setViewportSize({ width: 700, height: 900 });
      await page.waitForFunction(() =>
        document.querySelectorAll("nav[aria-label='Pages'] button").length === 7
      );
      assert.deepEqual(await pageLabels(page), ["1", "…", "4", "5", "6", "…", "11"]);
      await page.setViewportSize({ width: 375, height: 800 });
      await page.waitForFunction(() =>
        document.querySelectorAll("nav[aria-label='Pages'] button").length === 5
      );
      assert.deepEqual(await pageLabels(page), ["1", "…", "5", "…", "11"]);
      assert.equal(await pageOverflow(page), 0, "the table scrolls inside its box, not the page");
      await screenshot(page, "orders-resellers-375");
      await page.setViewportSize({ width: 1280, height: 900 });

      // The search is the server's: one call answers it, matching an old order's user name.
      await main.getByPlaceholder("Search order...").fill("quokka");
      await rows.nth(1).waitFor({ state: "detached" });
      await overlay.waitFor({ state: "detached" });
      assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.orderId)), [
        "OLD-0007",
      ]);
      assert.ok(listCalls.some((url) => /search=quokka/.test(url)), listCalls.join("\n"));
      assert.equal(await page.locator("nav[aria-label='Pages']").count(), 0, "one page only");
      await main.getByPlaceholder("Search order...").fill("");

      // Consumers tab: the customer's columns, and a manual payment confirmed.
      await main.getByRole("tab", { name: "Consumers" }).click();
      const manual = main.locator(`tr[data-order-id="${MANUAL_ORDER.id}"]`);
      await manual.waitFor();
      await overlay.waitFor({ state: "detached" });
      assert.deepEqual(
        (await main.locator("thead th").allInnerTexts()).slice(7).map((s) => s.trim()),
        ["Amount", "Customer Name", "Email", "Phone"],
      );
      assert.match(await manual.innerText(), /Pending Payment/);
      assert.match(await manual.innerText(), /Mia Tan\s+mia@shop\.test\s+\+65 9123 4567/);
      await screenshot(page, "orders-consumers-1280");
      await manual.getByRole("button", { name: "Confirm Payment" }).click();
      const confirm = page.locator("dialog.confirm-dialog");
      assert.match(await confirm.innerText(), /Confirm the manual payment of order MANUAL-0001\?/);
      await confirm.getByRole("button", { name: "Confirm Payment" }).click();
      // Paid: the order goes to its supplier, whose answer may already have moved it on.
      await manual.getByText(/Payment Received\. Pending Processing|Success|Error/).waitFor();
      assert.equal(await manual.getByRole("button", { name: "Confirm Payment" }).count(), 0);

      // Export downloads the current tab as orders-<date>.xlsx.
      const exportLink = main.getByRole("link", { name: "Export" });
      assert.match(String(await exportLink.getAttribute("href")), /buyerType=consumer/);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        exportLink.click(),
      ]);
      assert.equal(download.suggestedFilename(), `orders-${format(new Date(), "yyyy-MM-dd")}.xlsx`);
      assert.deepEqual(alerts, []);

      await page.setViewportSize({ width: 375, height: 800 });
      await page.waitForFunction(() => document.querySelector(".shell.mobile") !== null);
      assert.equal(await pageOverflow(page), 0, "Consumers tab at 375 px: no sideways page scroll");
      await screenshot(page, "orders-consumers-375");
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
