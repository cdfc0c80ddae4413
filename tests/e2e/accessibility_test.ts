// Every screen a person reaches (consumer, sign-in, reseller, admin) at 375 and 1280 px, scanned
// with axe-core in the browser: no violation at all, not even a
// moderate one such as a missing h1 or main landmark). On the
// admin screens at 1280 px every table fits its panel or sits in a scroll box a keyboard can
// reach; no order id wraps anywhere.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  gotoHydrated,
  launchBrowser,
  openEveryApiOperation,
  waitForIslands,
} from "../helpers/browser.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN, DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findResellerByEmail } from "../../src/db/repositories/resellers.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import { ORDER_DRAFT_KEY } from "../../src/shared/consumer-storefront.ts";

const AXE = await Deno.readTextFile(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);
const WIDTHS = [375, 1280];
const SCREENS_DIR = Deno.env.get("SCREENS_DIR");

interface Finding {
  screen: string;
  width: number;
  rule: string;
  impact: string;
  targets: string[];
}

/** Every violation axe finds on the page as it is now, whatever its impact. */
async function scan(page: Page, screen: string, width: number): Promise<Finding[]> {
  await page.waitForLoadState("networkidle");
  if (!await page.evaluate(() => "axe" in globalThis)) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return (result.violations as {
      id: string;
      impact: string;
      nodes: { target: string[] }[];
    }[]).map((v) => ({
      rule: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  if (SCREENS_DIR) {
    await page.screenshot({
      path: `${SCREENS_DIR}/${screen.replace(/\W+/g, "-")}-${width}.png`,
      fullPage: true,
    });
  }
  return violations.map((v) => ({ screen, width, ...v }));
}

/**
 * Tables wider than their panel whose overflow no keyboard can reach: each wide table must sit in
 * a box that scrolls sideways and takes focus (tabindex 0), itself no wider than the panel.
 */
async function unreachableWideTables(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const main = document.querySelector("main");
    if (!main) return ["no main landmark"];
    const panel = main.getBoundingClientRect();
    const problems: string[] = [];
    for (const table of document.querySelectorAll("main table")) {
      const box = table.getBoundingClientRect();
      if (box.width === 0) continue;
      let scroller: HTMLElement | null = table.parentElement;
      while (scroller && scroller !== main) {
        const overflow = getComputedStyle(scroller).overflowX;
        if (overflow === "auto" || overflow === "scroll") break;
        scroller = scroller.parentElement;
      }
      const name = table.querySelector("caption")?.textContent ??
        table.closest("section")?.querySelector("h2, h3")?.textContent ?? "table";
      if (!scroller || scroller === main) {
        if (box.right > panel.right + 1) {
          problems.push(`${name}: ${box.width}px in a ${panel.width}px panel, no scroll box`);
        }
        continue;
      }
      const room = scroller.getBoundingClientRect();
      if (room.right > panel.right + 1) problems.push(`${name}: its scroll box overflows`);
      if (scroller.scrollWidth > scroller.clientWidth + 1) {
        const where = `${scroller.scrollWidth}px in ${scroller.clientWidth}px`;
        if (scroller.tabIndex < 0) problems.push(`${name}: scrolls (${where}), no keyboard`);
      }
    }
    return problems;
  });
}

/**
 * At 1280 px an Orders table either fits its panel or scrolls in a box that is no taller than the
 * window (its scrollbar on screen) and scrolls sideways with the arrow keys once Tab reaches it.
 */
async function ordersTableReachable(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  const box = page.getByRole("region", { name: "Orders" });
  const size = await box.evaluate((el) => ({
    table: el.scrollWidth,
    room: el.clientWidth,
    height: el.getBoundingClientRect().height,
  }));
  if (size.table > size.room) {
    assert.ok(size.height <= 900, `the box (${size.height}px) keeps its scrollbar on screen`);
    await page.locator("input[placeholder='Search order...']").focus();
    for (let i = 0; i < 8; i++) {
      if (await box.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    assert.ok(await box.evaluate((el) => el === document.activeElement), "Tab reaches the table");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((el) => el!.scrollLeft > 0, await box.elementHandle());
    await box.evaluate((el) => el.scrollLeft = 0);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
}

/** Order ids wrapped over more than one line on the page (they are read and copied whole). */
async function wrappedOrderIds(page: Page): Promise<string[]> {
  return await page.locator(".rs-id").evaluateAll((ids) =>
    ids.filter((el) =>
      el.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(el).fontSize)
    )
      .map((el) => el.textContent ?? "")
  );
}

async function openMenu(page: Page, menu: string, name: string) {
  await page.getByRole("navigation", { name: menu }).getByRole("button", { name, exact: true })
    .click();
  await page.waitForLoadState("networkidle");
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await page.waitForLoadState("networkidle");
}

Deno.test({
  name: "[e2e] axe-core finds no violation on any screen at 375 and 1280 px, " +
    "and no admin table is wider than its panel without a keyboard-reachable scroll",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const reseller = (await findResellerByEmail(db, DEMO_RESELLER.email))!;
      const common = {
        game: "Mobile Legends",
        package: "mlbb",
        item: "172 Diamonds",
        denom: "172",
        user_id: "22222222",
        server_id: "2222",
        user_name: "A Rather Long Player Name",
        amount_cents: 320_000,
        cost: "2900",
        supplier: "elephant",
      };
      const orders: NewOrder[] = [
        {
          ...common,
          id: "R0000000000000001",
          buyer_type: "reseller",
          status: "successful",
          reseller_id: reseller.id,
          reseller_name: reseller.name,
          old_balance_cents: 123_456_789,
          new_balance_cents: 123_136_789,
        },
        {
          ...common,
          id: "C0000000000000001",
          buyer_type: "consumer",
          status: "payment-cancelled",
          consumer_name: "Maria Angelica Dela Cruz",
          consumer_email: "maria.angelica.delacruz@example.com",
          consumer_phone: "+63 917 123 4567",
          payment_provider: "hitpay",
        },
        {
          ...common,
          id: "C0000000000000002",
          buyer_type: "consumer",
          status: "payment-received-pending-disbursement",
          consumer_name: "Maria Angelica Dela Cruz",
          consumer_email: "maria.angelica.delacruz@example.com",
          consumer_phone: "+63 917 123 4567",
          payment_provider: "hitpay",
          review_since: new Date(),
          review_reason: "no usable answer",
        },
      ];
      await db.insertInto("orders").values(orders).execute();
    });
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    const findings: Finding[] = [];
    const wideTables: string[] = [];
    const wrappedIds: string[] = [];
    if (SCREENS_DIR) await Deno.mkdir(SCREENS_DIR, { recursive: true });
    try {
      const context = await browser.newContext({
        viewport: { width: WIDTHS[0], height: 900 },
        bypassCSP: true,
      });
      const page = await context.newPage();
      page.on("dialog", (dialog) => dialog.dismiss());
      /** Scans the screen shown now at each width (the console's mobile flag follows resizes). */
      const check = async (screen: string, on: Page = page) => {
        for (const width of WIDTHS) {
          await on.setViewportSize({ width, height: 900 });
          await on.waitForTimeout(50);
          findings.push(...await scan(on, screen, width));
          wrappedIds.push(...(await wrappedOrderIds(on)).map((id) => `${screen} ${width}: ${id}`));
          if (width === 1280 && screen.startsWith("admin") && !screen.endsWith("sign-in")) {
            wideTables.push(...(await unreachableWideTables(on)).map((p) => `${screen}: ${p}`));
          }
        }
        await on.setViewportSize({ width: WIDTHS[0], height: 900 });
      };

      for (
        const [screen, path] of [
          ["consumer games", "/consumers"],
          ["consumer top-up", "/consumers/mobile-legends"],
          ["consumer top-up with a server list", "/consumers/genshin-impact"],
          ["consumer order lookup", "/consumers/order"],
          ["consumer result", "/payment/success"],
          ["consumer unknown game", "/consumers/no-such-game"],
          ["unknown page", "/no-such-page"],
          ["consumer terms", "/consumers/terms"],
          ["consumer privacy", "/consumers/privacy"],
          ["consumer refunds", "/consumers/refunds"],
          ["reseller sign-in", "/resellers"],
          ["admin sign-in", "/admin"],
        ]
      ) {
        await gotoHydrated(page, `${server.url}${path}`);
        await check(screen);
      }
      // The result page of a paid order in Needs review: the order block and its timeline.
      await page.evaluate(([key, draft]) => localStorage.setItem(key, draft), [
        ORDER_DRAFT_KEY,
        JSON.stringify({
          orderID: "C0000000000000002",
          gameName: "Mobile Legends",
          userName: "A Rather Long Player Name",
          userid: "22222222",
          serverid: "2222",
          itemName: "172 Diamonds",
          amount: 3200,
          status: "payment-received-pending-disbursement",
        }),
      ]);
      await gotoHydrated(page, `${server.url}/payment/success`);
      await page.getByText("We are checking this order with the supplier").waitFor();
      await check("consumer result with its timeline");
      // Verify with the fields empty: each says what it needs.
      await gotoHydrated(page, `${server.url}/consumers/genshin-impact`);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("Please enter your User ID").waitFor();
      await check("consumer top-up, Verify with empty fields");
      await gotoHydrated(page, `${server.url}/admin`);

      // Sign-in with two-factor enrolment: the QR step and the code step are screens too.
      await page.getByLabel("Email").fill(DEMO_ADMIN.email);
      await page.getByLabel("Password").fill(DEMO_ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL("**/2fa");
      await waitForIslands(page);
      await check("two-factor QR");
      const secret = (await page.getByLabel("Secret key").innerText()).trim();
      await page.getByRole("button", { name: "Done" }).click();
      await check("two-factor code");
      await page.getByLabel("Verification code").fill(generateTotpCode(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL("**/admin/home");
      await waitForIslands(page);

      await check("admin dashboard");
      for (const view of ["Emails", "Games", "Suppliers", "Settings", "Audit"]) {
        await openMenu(page, "Admin menu", view);
        await check(`admin ${view}`);
      }
      await openMenu(page, "Admin menu", "Games");
      await page.locator("main tbody tr").first().click();
      await check("admin edit game");
      await openMenu(page, "Admin menu", "Orders");
      await page.locator("main tbody tr").first().waitFor();
      await check("admin orders resellers");
      await ordersTableReachable(page);
      await openTab(page, "Consumers");
      await page.locator("main tbody tr").first().waitFor();
      await check("admin orders consumers");
      await ordersTableReachable(page);
      await openMenu(page, "Admin menu", "Users");
      await check("admin users resellers");
      await page.getByRole("button", { name: "Create New Reseller" }).click();
      await check("admin create reseller");
      await page.getByRole("button", { name: "Back", exact: true }).click();
      for (const tab of ["Consumers", "Admins"]) {
        await openTab(page, tab);
        await check(`admin users ${tab}`);
      }
      // A button's hover colours are read too: the pointer rests on another admin's Delete.
      const created = await page.request.post(`${server.url}/api/user`, {
        data: {
          name: "Second Admin",
          email: "second@admin.test",
          rank: "Staff",
          password: "quiet harbour lantern 42",
          remarks: "",
        },
        headers: { Origin: server.url },
      });
      assert.equal(created.status(), 201, await created.text());
      await openTab(page, "Consumers");
      await openTab(page, "Admins");
      await page.getByRole("button", { name: "Delete admin Second Admin" }).hover();
      await check("admin users Admins, the pointer on Delete");
      await context.close();

      const resellerContext = await browser.newContext({
        viewport: { width: WIDTHS[0], height: 900 },
        bypassCSP: true,
      });
      const portal = await resellerContext.newPage();
      await gotoHydrated(portal, `${server.url}/resellers`);
      await portal.getByLabel("Email").fill(DEMO_RESELLER.email);
      await portal.getByLabel("Password").fill(DEMO_RESELLER.password);
      await portal.getByRole("button", { name: "Sign In" }).click();
      await portal.waitForURL("**/resellers/home");
      await waitForIslands(portal);
      await check("reseller games", portal);
      await portal.getByRole("button", { name: /Mobile Legends/ }).first().click();
      await check("reseller Mobile Legends", portal);
      for (const view of ["Orders", "Account"]) {
        await openMenu(portal, "Reseller menu", view);
        await check(`reseller ${view}`, portal);
      }
      // The whole API reference, Scalar's document included, with every operation rendered.
      await portal.setViewportSize({ width: 1280, height: 900 });
      await gotoHydrated(portal, `${server.url}/resellers/api`);
      await openEveryApiOperation(portal);
      await check("reseller API reference", portal);
      await resellerContext.close();
      assert.deepEqual({ findings, wideTables, wrappedIds }, {
        findings: [],
        wideTables: [],
        wrappedIds: [],
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
