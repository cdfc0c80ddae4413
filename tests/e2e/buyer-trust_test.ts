// What a buyer checks before paying, in a real browser at 375 px: the footer's Terms, Privacy and
// Refund pages open and read (the demo's placeholders say so, an admin's text from Settings
// replaces them), a game page says where to find the User ID (help, the supplier's note, the
// instructional image), Verify with an empty User ID says why nothing happened and sends nothing,
// and the FAQ's structured data passes the page's Content-Security-Policy untouched.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  gotoHydrated,
  launchBrowser,
  pageOverflow,
  signInDemoAdminInBrowser,
} from "../helpers/browser.ts";
import { signInAdmin } from "../helpers/sessions.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const SHOTS = Deno.env.get("SCREENSHOT_DIR");

/** Full-page screenshots at 375 and 1280 px when SCREENSHOT_DIR is set (to look at, not compare). */
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  await Deno.mkdir(SHOTS, { recursive: true });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 375, height: 800 });
}

Deno.test({
  name: "[e2e] at 375 px a buyer reads the footer's policy pages, finds where the User ID is, " +
    "and Verify with an empty User ID says it is needed",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const adminPage = await adminContext.newPage();
      const secret = await signInDemoAdminInBrowser(adminPage, server.url);
      // Genshin Impact gets an instructional image, as an admin would upload one.
      const { client: admin } = await signInAdmin(
        server.url,
        DEMO_ADMIN.email,
        DEMO_ADMIN.password,
        secret,
        1,
      );
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const genshin = games.find((g) => g.name === "Genshin Impact")!;
      const saved = await admin.request("PUT", `/api/game/${genshin._id}`, {
        ...genshin,
        instructionalImage: "/games/genshin.svg",
      });
      assert.equal(saved.status, 200, saved.text);

      const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on("console", (message) => {
        if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspErrors.push(message.text());
      });

      await t.step("the footer's policy links open pages a buyer can read", async () => {
        for (
          const [link, heading] of [
            ["Terms of Service", "Terms of Service"],
            ["Privacy Policy", "Privacy Policy"],
            ["Refund Policy", "Refund Policy"],
          ]
        ) {
          await page.goto(`${server.url}/consumers`);
          const footer = page.getByRole("navigation", { name: "Store policies" });
          await footer.getByRole("link", { name: link }).click();
          await page.getByRole("heading", { level: 1, name: heading }).waitFor();
          assert.equal(await page.title(), `${heading} | TopUp`);
          assert.ok(
            await page.getByRole("note").filter({ hasText: "Demo placeholder" }).isVisible(),
            "the demo's text says it is a placeholder",
          );
          assert.ok(await page.locator(".ct-policy h2").count() > 0, "sections with headings");
          assert.equal(await pageOverflow(page), 0, "no sideways scrolling at 375 px");
        }
        assert.ok(await page.getByText("TopUp Demo (placeholder company)").isVisible());
        await shoot(page, "refund-policy");
      });

      await t.step("the game page says where the User ID is, with the image", async () => {
        await gotoHydrated(page, `${server.url}/consumers/genshin-impact`);
        const userId = page.getByRole("textbox", { name: "User ID" });
        assert.equal(
          await userId.getAttribute("aria-describedby"),
          "userid-help",
          "the help is the field's description",
        );
        assert.ok(
          await page.getByText("Find your User ID on your profile in Genshin Impact.").isVisible(),
        );
        assert.ok(
          await page.getByText("UID is on the bottom right of the Paimon menu.").isVisible(),
          "the supplier's note",
        );
        const image = page.getByRole("img", {
          name: "Where to find your Genshin Impact account ID",
        });
        assert.equal(await image.isVisible(), false, "the image waits behind its toggle");
        await page.getByText("Where do I find my User ID?").click();
        await image.waitFor();
        assert.equal(await pageOverflow(page), 0);
      });

      await t.step(
        "Verify with an empty User ID says so, focuses it and sends nothing",
        async () => {
          const verifyCalls: string[] = [];
          page.on("request", (request) => {
            if (request.url().includes("/api/consumers/verify_id/")) {
              verifyCalls.push(request.url());
            }
          });
          await page.getByRole("button", { name: "Verify" }).click();
          const userId = page.getByRole("textbox", { name: "User ID" });
          await page.getByText("Please enter your User ID").waitFor();
          assert.ok(await page.getByText("Please select your server").isVisible());
          assert.equal(await userId.getAttribute("aria-invalid"), "true");
          assert.ok(await userId.evaluate((el) => el === document.activeElement), "focused");
          assert.deepEqual(verifyCalls, [], "spec §5: Verify sends nothing while User ID is empty");

          await userId.fill("812345678");
          assert.equal(await page.getByText("Please enter your User ID").count(), 0, "typed: gone");
          assert.ok(await page.getByText("Please select your server").isVisible(), "still empty");
          await page.getByRole("combobox", { name: "Server" }).selectOption({ label: "Asia" });
          assert.equal(await page.getByText("Please select your server").count(), 0);
          await page.getByRole("button", { name: "Verify" }).click();
          await page.locator(".ct-verified").waitFor();
          assert.equal(verifyCalls.length, 1, "filled in: Verify asks the server");
        },
      );

      await t.step(
        "the FAQ reads as an accordion and its FAQPage data is not blocked",
        async () => {
          await gotoHydrated(page, `${server.url}/consumers/mobile-legends`);
          await page.getByText("How long does delivery take?").click();
          await page.getByText("Most orders arrive within a few minutes of payment.").waitFor();
          const data = JSON.parse(
            await page.locator('script[type="application/ld+json"]').innerText(),
          );
          assert.equal(data["@type"], "FAQPage");
          assert.deepEqual(cspErrors, [], "no Content-Security-Policy complaint on any page");
          await page.getByRole("heading", { name: "About Mobile Legends" }).waitFor();
          await shoot(page, "game-page");
        },
      );

      await t.step("an admin's Terms from Settings replace the placeholder", async () => {
        await adminPage.getByRole("navigation", { name: "Admin menu" })
          .getByRole("button", { name: "Settings", exact: true }).click();
        const form = adminPage.getByRole("form", { name: "Store Policies" });
        await form.getByLabel("Terms of Service").fill(
          "## Our terms\nTop-ups go to the account you verify.\n\nPrices are in US dollars.",
        );
        await form.getByLabel("Company Name").fill("Gem Shop Pte. Ltd.");
        await form.getByRole("button", { name: "Save" }).click();
        await form.getByText("Saved").waitFor();
        await adminContext.close();

        await page.goto(`${server.url}/consumers/terms`);
        await page.getByRole("heading", { level: 2, name: "Our terms" }).waitFor();
        assert.ok(await page.getByText("Prices are in US dollars.").isVisible());
        assert.equal(await page.getByRole("note").count(), 0, "no placeholder note");
        assert.ok(await page.getByText("Gem Shop Pte. Ltd.").isVisible(), "the footer's company");
        await shoot(page, "terms");
      });
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
