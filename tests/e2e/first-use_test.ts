import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  signInDemoAdminInBrowser,
  signInDemoResellerInBrowser,
  waitForIslands,
} from "../helpers/browser.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";
import { ELITEDIAS_CATALOGUE } from "../../src/integrations/elitedias/catalogue.ts";
import { MOOGOLD_CATALOGUE } from "../../src/integrations/moogold/catalogue.ts";

// What a first-time user of the demo trips over within minutes.

/** The demo games with a server list, and the list their supplier's simulator serves. */
const GAMES_WITH_SERVERS: { name: string; servers: Record<string, string> }[] = [
  {
    name: "Genshin Impact",
    servers: ELITEDIAS_CATALOGUE.find((g) => g.code === "genshin")!.servers,
  },
  {
    name: "Honkai: Star Rail",
    servers: ELITEDIAS_CATALOGUE.find((g) => g.code === "honkai_star_rail")!.servers,
  },
  {
    name: "Ragnarok Origin",
    servers: MOOGOLD_CATALOGUE.find((p) => p.id === 5177311)!.serverList as Record<string, string>,
  },
];

const ADMIN_MENU = [
  "Dashboard",
  "Emails",
  "Games",
  "Orders",
  "Users",
  "Suppliers",
  "Settings",
  "Operations",
];

async function signInReseller(browser: Browser, baseUrl: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInDemoResellerInBrowser(page, baseUrl);
  return page;
}

Deno.test({
  name: "[e2e] first use: server dropdowns verify, empty games stay unlisted, every admin menu " +
    "item shows something, unknown paths get the branded 404",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    const notFound: string[] = [];
    try {
      const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      admin.on("response", (r) => r.status() === 404 && notFound.push(r.url()));

      await t.step("the console lands on a built screen and no menu item is blank", async () => {
        await signInDemoAdminInBrowser(admin, server.url);
        const main = admin.locator("main[data-view]");
        assert.equal(await main.getAttribute("data-view"), "dashboard");
        const menu = admin.getByRole("navigation", { name: "Admin menu" });
        for (const label of ADMIN_MENU) {
          await menu.getByRole("button", { name: label, exact: true }).click();
          const heading = label === "Users" ? "Resellers" : label;
          await main.getByRole("heading", { name: heading, exact: true }).waitFor();
          const text = (await main.innerText()).trim();
          assert.ok(text.length > label.length, `${label} shows more than its name: ${text}`);
        }
      });

      await t.step(
        "at 375 px every admin menu item is in sight, with no sideways scroll",
        async () => {
          await admin.setViewportSize({ width: 375, height: 800 });
          const menu = admin.getByRole("navigation", { name: "Admin menu" });
          await admin.waitForFunction(() => document.querySelector(".shell.mobile") !== null);
          for (const label of ADMIN_MENU) {
            const box = await menu.getByRole("button", { name: label, exact: true }).boundingBox();
            assert.ok(box, label);
            assert.ok(box.x >= 0 && box.x + box.width <= 375, `${label} at ${box.x}+${box.width}`);
          }
          const overflow = await admin.evaluate(() => {
            const nav = document.querySelector("nav[aria-label='Admin menu']")!;
            return {
              nav: nav.scrollWidth - nav.clientWidth,
              page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            };
          });
          assert.deepEqual(overflow, { nav: 0, page: 0 });
          await admin.setViewportSize({ width: 1280, height: 900 });
        },
      );

      await t.step("a game created with only a name is not in the reseller grid", async () => {
        const menu = admin.getByRole("navigation", { name: "Admin menu" });
        await menu.getByRole("button", { name: "Games", exact: true }).click();
        await admin.getByRole("button", { name: "Create New Game" }).click();
        await admin.getByLabel("Game Name").fill("Empty Game");
        await admin.getByRole("button", { name: "Create Game" }).click();
        // The console opens the new game's editor once the server has it; leaving before that
        // would show the list without it, and then jump to the editor.
        await admin.locator('main[data-view="edit-game"]').waitFor();
        await menu.getByRole("button", { name: "Games", exact: true }).click();
        await admin.getByRole("cell", { name: "Empty Game", exact: true }).waitFor();

        const reseller = await signInReseller(browser, server.url);
        reseller.on("response", (r) => r.status() === 404 && notFound.push(r.url()));
        await reseller.locator(".rs-game", { hasText: "PUBG Mobile" }).waitFor();
        const names = await reseller.locator(".rs-game-name").allInnerTexts();
        assert.equal(names.length, 7, names.join(", "));
        assert.ok(!names.includes("Empty Game"), names.join(", "));
        // Every demo card shows its tile, not a letter.
        assert.equal(await reseller.locator(".rs-game-placeholder").count(), 0);
        await reseller.close();
      });

      await t.step(
        "each demo game with servers offers them and the first one verifies",
        async () => {
          const reseller = await signInReseller(browser, server.url);
          reseller.on("response", (r) => r.status() === 404 && notFound.push(r.url()));
          for (const game of GAMES_WITH_SERVERS) {
            await reseller.locator(".rs-game", { hasText: game.name }).click();
            await reseller.getByRole("heading", { name: game.name, exact: true }).waitFor();
            // A dropdown of the named servers, by name (JSONB keeps no key order).
            const select = reseller.getByRole("combobox", { name: /^Server/ });
            await select.waitFor();
            const options = await select.locator("option:not([disabled])").evaluateAll((os) =>
              os.map((o) => [o.textContent, (o as HTMLOptionElement).value])
            );
            const byName = Object.entries(game.servers).sort(([a], [b]) => a.localeCompare(b));
            assert.deepEqual(options, byName, game.name);
            assert.equal(await reseller.getByLabel("Server ID").count(), 0, game.name);

            await reseller.getByLabel("User ID").fill("80012345");
            await select.selectOption({ index: 1 });
            const characterName = reseller.getByLabel("Character Name");
            if (await characterName.count()) await characterName.fill("Poring");
            await reseller.getByRole("button", { name: "Verify" }).click();
            await reseller.locator(".rs-verified").getByRole("img", { name: "Verified" }).waitFor();
            assert.equal(await reseller.getByText("Invalid user").count(), 0, game.name);
            await reseller.locator(".rs-item").first().waitFor();
            await reseller.getByRole("button", { name: "Back" }).click();
          }
          await reseller.close();
        },
      );

      await t.step("an unknown path gets the branded 404 with a way back", async () => {
        const page = await browser.newPage();
        const response = await page.goto(`${server.url}/no/such/page`);
        assert.equal(response?.status(), 404);
        await page.getByRole("heading", { name: "Page not found" }).waitFor();
        const links = await page.getByRole("navigation", { name: "Ways back" }).getByRole("link")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
        assert.deepEqual(links, ["/consumers", "/resellers", "/admin"]);
        const background = await page.evaluate(() => getComputedStyle(document.body).background);
        assert.match(background, /rgb\(26, 26, 26\)/);
        assert.doesNotMatch(await page.content(), /astro/i);
        const favicon = await page.request.get(`${server.url}/favicon.svg`);
        assert.equal(favicon.status(), 200);
        assert.equal(favicon.headers()["content-type"], "image/svg+xml");
        await page.close();
      });

      await t.step("the third wrong two-factor code lands on / with a notice", async () => {
        const page = await browser.newPage();
        await page.goto(`${server.url}/admin`);
        await waitForIslands(page);
        await page.getByLabel("Email").fill(DEMO_ADMIN.email);
        await page.getByLabel("Password").fill(DEMO_ADMIN.password);
        await page.getByRole("button", { name: "Sign In" }).click();
        await page.waitForURL("**/2fa");
        await waitForIslands(page);
        for (let i = 0; i < 3; i++) {
          await page.getByLabel("Verification code").fill("000000");
          await page.getByRole("button", { name: "Verify" }).click();
          if (i < 2) await page.getByText("Verification failed, Please try again.").waitFor();
        }
        await page.waitForURL((url) => url.pathname === "/");
        await page.getByRole("status").filter({
          hasText: "Your sign-in attempt ended after too many wrong verification codes. " +
            "Please sign in again.",
        }).waitFor();
        await page.close();
      });

      assert.deepEqual(notFound, [], "no page asked for something that is not there");
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
