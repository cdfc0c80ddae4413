// Admin → Orders → Needs review in a real browser: orders put in review through the
// real path (a reseller's PUBG Mobile order whose EliteDias top-up times out), the tab's count,
// the row's reason and attempt, Mark Delivered refused without the supplier's id and accepted
// with it, a refund that gives the reseller its money back, and a failed mail job retried.
// With SCREENS_DIR set, screenshots at 1280 and 375 px are saved there.
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { SHORT_SUPPLIER_TIMEOUT, startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import type { TestClient } from "../helpers/client.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import type { AdminOrdersPage, ReviewOrderDto } from "../../src/shared/order-types.ts";

const SCREENS_DIR = Deno.env.get("SCREENS_DIR");
const FAILED_MAIL_TO = "outage@shop.test";
const SMTP_ERROR = "SMTP 421 service not available";
/** What resolveReview answers a Mark Delivered without the supplier's order id (400). */
const ID_REQUIRED = "Enter the supplier's order id (letters, digits, . : _ -)";

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENS_DIR) return;
  await Deno.mkdir(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}

/** How far the page itself scrolls sideways (0: nothing sticks out of the window). */
async function pageOverflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

/** How far each table of the tab panel sticks out of the panel, widest first (0: none does). */
async function tableOverflow(main: Locator): Promise<number> {
  return await main.locator("[role=tabpanel]").evaluate((panel) =>
    Math.max(
      ...[...panel.querySelectorAll("table")].map((table) =>
        Math.ceil(table.getBoundingClientRect().right - panel.getBoundingClientRect().right)
      ),
    )
  );
}

/** The reseller's balance in dollars, as its portal shows it. */
async function balanceOf(reseller: TestClient): Promise<number> {
  return (await reseller.get("/api/current_user")).json.user.balance;
}

/** The queue as the admin's session in `page` gets it from the server at `base`. */
async function reviewQueue(page: Page, base: string): Promise<ReviewOrderDto[]> {
  const r = await page.request.get(`${base}/api/orders/review`);
  assert.equal(r.status(), 200, await r.text());
  return (await r.json()).orders;
}

/** Waits until the order's supplier job has put it in Needs review; returns it as listed. */
async function waitInReview(page: Page, base: string, orderId: string): Promise<ReviewOrderDto> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const listed = (await reviewQueue(page, base)).find((o) => o.id === orderId);
    if (listed) return listed;
    await page.waitForTimeout(250);
  }
  throw new Error(`order ${orderId} never reached Needs review`);
}

/** Places the reseller's PUBG Mobile order while EliteDias times out its top-up endpoint. */
async function placeTimingOut(base: string, reseller: TestClient, key: string): Promise<string> {
  await simControl(base, "elitedias", "forceNext", ["timeout", 1, "elitedias_reseller_topup_api"]);
  const { body } = await pubgOrder(reseller);
  const r = await reseller.post("/api/reseller/place_order", body, { "idempotency-key": key });
  assert.equal(r.status, 201, r.text);
  return r.json.order.id;
}

/** Holds the browser's POSTs to `path` until the returned function is called; later ones pass. */
async function holdPosts(page: Page, path: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route((url) => url.pathname === path, async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  return release;
}

Deno.test({
  name: "[e2e] an admin resolves the orders in Needs review (delivered with the supplier's id, " +
    "refunded) and retries a failed mail job",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const failedJobId = await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const job = await db.insertInto("jobs").values({
        kind: SEND_MAIL_JOB,
        payload: JSON.stringify({
          to: FAILED_MAIL_TO,
          subject: "Your receipt",
          text: "Thank you",
          html: "<p>Thank you</p>",
          key: crypto.randomUUID(),
        }),
        attempts: 5,
        max_attempts: 5,
        last_error: SMTP_ERROR,
        failed_at: new Date(),
      }).returning("id").executeTakeFirstOrThrow();
      return Number(job.id);
    });
    const server = await startTestServer(tdb, SHORT_SUPPLIER_TIMEOUT);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);
      const reseller = await signInDemoReseller(server.url);

      const delivered = await placeTimingOut(server.url, reseller, "review-e2e-1");
      const listed = await waitInReview(page, server.url, delivered);
      assert.equal(listed.attempts.length, 1, "EliteDias was asked once");

      // The count is on the tab label while another tab (Resellers) is open.
      const menu = page.getByRole("navigation", { name: "Admin menu" });
      await menu.getByRole("button", { name: "Orders", exact: true }).click();
      const main = page.locator("main[data-view='orders']");
      const reviewTab = main.getByRole("tab", { name: /^Needs review/ });
      await main.getByRole("tab", { name: "Needs review (1)", exact: true }).waitFor();
      assert.equal(
        await main.getByRole("tab", { name: "Resellers" }).getAttribute("aria-selected"),
        "true",
      );

      await reviewTab.click();
      const row = main.locator(`tbody[data-order-id="${delivered}"]`);
      await row.waitFor();
      const text = await row.innerText();
      assert.ok(text.includes(listed.reviewReason), `reason missing from:\n${text}`);
      assert.match(text, /PUBG Mobile/);
      assert.match(text, /EliteDias/);
      assert.ok(text.includes(listed.reseller!.name), `buyer missing from:\n${text}`);
      const attempt = row.locator(".ao-attempts li");
      assert.equal(await attempt.count(), 1);
      assert.match(await attempt.innerText(), /uncertain/);
      assert.ok((await attempt.innerText()).includes(listed.attempts[0].answer));

      const job = main.locator(`tr[data-job-id="${failedJobId}"]`);
      const cell = async (label: string) =>
        (await job.locator(`td[data-label="${label}"]`).innerText()).trim();
      assert.equal(await cell("Kind"), SEND_MAIL_JOB);
      assert.equal(await cell("Subject"), FAILED_MAIL_TO);
      assert.equal(await cell("Attempts"), "5");
      assert.equal(await cell("Last Error"), SMTP_ERROR);
      assert.equal(await pageOverflow(page), 0);
      assert.equal(await tableOverflow(main), 0, "no table wider than its panel at 1280 px");
      await screenshot(page, "review-1280");

      // At 375 px every order and job is a card, inside the window.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.waitForFunction(() => document.querySelector(".shell.mobile") !== null);
      assert.equal(await row.evaluate((tbody) => getComputedStyle(tbody).display), "block");
      assert.equal(await main.locator(".ao-review thead").isVisible(), false);
      assert.equal(await pageOverflow(page), 0, "no sideways page scroll at 375 px");
      assert.equal(await tableOverflow(main), 0, "no card wider than its panel at 375 px");
      await screenshot(page, "review-375");

      // Mark Delivered, from the keyboard: refused without the supplier's id, with the server's
      // reason; accepted with it, and the order leaves the queue.
      await row.getByRole("button", { name: "Mark Delivered" }).focus();
      await page.keyboard.press("Enter");
      const dialog = page.locator("dialog.confirm-dialog");
      assert.match(await dialog.innerText(), new RegExp(`Mark order ${delivered} delivered\\?`));
      const confirmDelivered = dialog.getByRole("button", { name: "Mark Delivered" });
      await confirmDelivered.click();
      await dialog.getByRole("alert").getByText(ID_REQUIRED, { exact: false }).waitFor();
      await screenshot(page, "review-dialog-375");
      await dialog.getByLabel("Supplier order ID").fill("ED-778899");
      await confirmDelivered.click();
      await dialog.waitFor({ state: "detached" });
      await main.getByText("No orders need review.").waitFor();
      await main.getByRole("tab", { name: "Needs review", exact: true }).waitFor();
      const search = await page.request.get(
        `${server.url}/api/orders?buyerType=reseller&search=${delivered}&page=1`,
      );
      const [after] = ((await search.json()) as AdminOrdersPage).orders;
      assert.equal(after.status, "successful");
      assert.equal(after.supplierOrderID, "ED-778899");
      await page.setViewportSize({ width: 1280, height: 900 });

      // A second order, refunded: the view fetches the count again when it opens.
      const before = await balanceOf(reseller);
      const refunded = await placeTimingOut(server.url, reseller, "review-e2e-2");
      const { amount } = await waitInReview(page, server.url, refunded);
      assert.equal(await balanceOf(reseller), Math.round((before - amount) * 100) / 100);
      await menu.getByRole("button", { name: "Dashboard" }).click();
      await menu.getByRole("button", { name: "Orders", exact: true }).click();
      await main.getByRole("tab", { name: "Needs review (1)", exact: true }).click();
      await main.locator(`tbody[data-order-id="${refunded}"]`)
        .getByRole("button", { name: "Refund" }).click();
      assert.match(await dialog.innerText(), /balance is credited \$[\d.]+, once/);
      const release = await holdPosts(page, `/api/orders/${refunded}/review`);
      await dialog.getByRole("button", { name: "Refund" }).click();
      await dialog.getByText("Saving...").waitFor();
      assert.equal(await dialog.getByRole("button", { name: "Refund" }).isDisabled(), true);
      release();
      await dialog.waitFor({ state: "detached" });
      await main.getByText("No orders need review.").waitFor();
      assert.equal(await balanceOf(reseller), before, "the reseller's money is back");

      // The failed mail job, retried: busy while it posts, then gone from the list and the server's.
      const releaseRetry = await holdPosts(page, `/api/jobs/${failedJobId}/retry`);
      const retry = job.getByRole("button", { name: "Retry" });
      await retry.click();
      assert.equal(await retry.getAttribute("aria-busy"), "true");
      assert.equal(await retry.isDisabled(), true);
      releaseRetry();
      await main.getByText("No failed jobs.").waitFor();
      const failed = await page.request.get(`${server.url}/api/jobs/failed`);
      assert.deepEqual((await failed.json()).jobs, []);
      assert.deepEqual(alerts, []);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
