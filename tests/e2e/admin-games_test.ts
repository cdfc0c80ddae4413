import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

/** A 1x1 transparent PNG. */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const CONFLICT_ALERT = "Fail update game data, please try again. Error: " +
  "This game was changed by someone else. Reload it and try again.";

async function adminGames(page: Page, baseUrl: string): Promise<GameDto[]> {
  const response = await page.request.get(`${baseUrl}/api/admin/games`);
  assert.equal(response.status(), 200);
  return await response.json();
}

async function gameNamed(page: Page, baseUrl: string, name: string): Promise<GameDto> {
  const game = (await adminGames(page, baseUrl)).find((g) => g.name === name);
  assert.ok(game, `${name} is in the catalogue`);
  return game;
}

async function openGamesList(page: Page) {
  await page.getByRole("navigation", { name: "Admin menu" })
    .getByRole("button", { name: "Games" }).click();
}

/** The games-list row whose name cell reads exactly `label`. */
function gameRow(page: Page, label: string) {
  return page.locator("tbody tr").filter({
    has: page.getByRole("cell", { name: label, exact: true }),
  });
}

Deno.test({
  name: "[e2e] admins edit games across tabs, save once, and meet stale-version conflicts",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);

      // Games list: seven demo games by priority, the supplier's icon (labelled) before the name.
      await openGamesList(page);
      await page.getByRole("columnheader", { name: "Is Out of Stock" }).waitFor();
      const names = await page.locator("tbody tr td:first-child").allInnerTexts();
      assert.equal(names.length, 7);
      assert.equal(names[0], "Mobile Legends");
      assert.ok(names.includes("PUBG Mobile"), names.join(", "));
      assert.ok(names.includes("Free Fire"), names.join(", "));
      await gameRow(page, "EliteDias Mobile Legends").waitFor();
      await gameRow(page, "MooGold Free Fire").waitFor();
      await page.screenshot({ path: "/tmp/admin-games-list.png" });

      // PUBG Mobile has merchandise: Packages is unavailable.
      const pubg = await gameNamed(page, server.url, "PUBG Mobile");
      const item = pubg.gameItems[1];
      assert.equal(item.isHiddenReseller, false);
      await gameRow(page, "EliteDias PUBG Mobile").click();
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByText("PUBG Mobile").waitFor();
      assert.equal(await page.getByRole("tab", { name: "Packages" }).isDisabled(), true);
      assert.equal(await page.getByRole("tab", { name: "Merchandise" }).isDisabled(), false);

      // Merchandise: hide one item from resellers and give resellers a discount on it.
      await page.getByRole("tab", { name: "Merchandise" }).click();
      const itemRow = page.locator("tbody tr").filter({
        has: page.getByRole("cell", { name: item.nameSupplier, exact: true }),
      });
      await itemRow.getByLabel("Hide for resellers").check();
      await itemRow.getByLabel("Reseller discount %").fill("12.5");
      assert.equal(await page.getByRole("columnheader", { name: "2x Recharge" }).count(), 0);
      await page.screenshot({ path: "/tmp/admin-games-merchandise.png", fullPage: true });

      // Settings: the markup for all resellers.
      await page.getByRole("tab", { name: "Settings" }).click();
      await page.getByLabel("Reseller Markup %").fill("7.5");
      await page.screenshot({ path: "/tmp/admin-games-settings.png", fullPage: true });

      // Details: upload the game image; the preview shows the stored file.
      await page.getByRole("tab", { name: "Details" }).click();
      await page.getByLabel("Game Image").setInputFiles({
        name: "notes.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("not an image"),
      });
      await page.getByText("Please select a valid image file").waitFor();
      await page.getByLabel("Game Image").setInputFiles({
        name: "pixel.png",
        mimeType: "image/png",
        buffer: PIXEL_PNG,
      });
      const preview = page.getByAltText("Game Image preview");
      await preview.waitFor();
      await page.waitForFunction(
        () =>
          (document.querySelector(".ag-preview") as HTMLImageElement | null)?.naturalWidth === 1,
      );
      await page.screenshot({ path: "/tmp/admin-games-details.png", fullPage: true });

      // One Save stores the changes of every tab.
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Game saved successfully.").waitFor();
      const saved = await gameNamed(page, server.url, "PUBG Mobile");
      assert.equal(saved.version, pubg.version + 1);
      const savedItem = saved.gameItems.find((i) => i.nameSupplier === item.nameSupplier)!;
      assert.equal(savedItem.isHiddenReseller, true);
      assert.equal(savedItem.isHiddenConsumer, false);
      assert.equal(savedItem.discountRateReseller, 12.5);
      assert.equal(savedItem.isDiscountedReseller, true);
      assert.equal(saved.resellerMarkupAll, 7.5);
      assert.equal(saved.consumerMarkup, pubg.consumerMarkup);
      assert.match(saved.gameImage, /\/uploads\/games\/[^?]+\.png$/);
      const image = await page.request.get(saved.gameImage);
      assert.equal(image.status(), 200);
      assert.ok((await image.body()).equals(PIXEL_PNG));
      assert.deepEqual(alerts, []);

      // Someone else saves the game; this page still holds the version it loaded.
      const { _id, supplier: _s, supplierName: _n, supplierGameID: _g, ...editable } = saved;
      const elsewhere = await page.request.put(`${server.url}/api/game/${_id}`, {
        data: { ...editable, tagline: "Changed elsewhere" },
      });
      assert.equal(elsewhere.status(), 200);
      await page.getByLabel("Tagline").fill("Changed here");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").getByText(CONFLICT_ALERT).waitFor();
      assert.deepEqual(alerts, [CONFLICT_ALERT]);
      assert.equal((await gameNamed(page, server.url, "PUBG Mobile")).tagline, "Changed elsewhere");

      // Mobile Legends has packages: Merchandise is unavailable, a package opens its items.
      await page.getByRole("button", { name: "Back" }).click();
      await gameRow(page, "EliteDias Mobile Legends").click();
      assert.equal(await page.getByRole("tab", { name: "Merchandise" }).isDisabled(), true);
      await page.getByRole("tab", { name: "Packages" }).click();
      await gameRow(page, "mlbb_special").click();
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByText("mlbb_special")
        .waitFor();
      await page.getByRole("columnheader", { name: "2x Recharge" }).waitFor();
      // Optimise Sorting: non-numbered names first, then by the number in the reseller name.
      await page.getByRole("button", { name: "Optimise Sorting" }).click();
      const sorted = await page.getByLabel("Reseller name").evaluateAll((inputs) =>
        inputs.map((input) => (input as HTMLInputElement).value)
      );
      assert.deepEqual(sorted, [
        "Weekly Diamond Pass",
        "50",
        "86 Diamonds",
        "150",
        "172 Diamonds",
        "250",
        "500",
      ]);
      await page.screenshot({ path: "/tmp/admin-games-package.png", fullPage: true });

      // Create New Game: a name is required, then the new game opens and joins the list.
      await openGamesList(page);
      await page.getByRole("button", { name: "Create New Game" }).click();
      const createButton = page.getByRole("button", { name: "Create Game" });
      assert.equal(await createButton.isDisabled(), true);
      await page.getByLabel("Game Name").fill("Test Game");
      await createButton.click();
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByText("Test Game").waitFor();
      await page.getByRole("button", { name: "Back" }).click();
      await gameRow(page, "Test Game").waitFor();
      assert.equal(await page.locator("tbody tr").count(), 8);

      // Deleting asks first, then the game leaves the list.
      await gameRow(page, "Test Game").click();
      await page.getByRole("tab", { name: "Settings" }).click();
      await page.getByRole("button", { name: "Delete Game" }).click();
      await page.getByText("Delete game 'Test Game'?").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByRole("columnheader", { name: "Has Packages" }).waitFor();
      assert.equal(await gameRow(page, "Test Game").count(), 0);
      assert.equal((await adminGames(page, server.url)).length, 7);
      assert.equal(alerts.length, 1);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
