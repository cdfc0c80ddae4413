// Admin → Edit game → Settings › Routes at 375 px: an admin routes Genshin Impact's 60-crystal
// item on to MooGold, picked from what MooGold sells, saves it, and the page never scrolls sideways;
// MooGold's Genshin Impact on the Suppliers screen offers its items as routes instead of a launch.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { GameRoutesDto } from "../../src/shared/item-route-types.ts";

const AXE = await Deno.readTextFile(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

/** The rules axe-core finds broken inside `selector`. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  if (!await page.evaluate(() => "axe" in globalThis)) await page.evaluate(AXE);
  return await page.evaluate(async (include) => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run({ include: [include] }, {
      resultTypes: ["violations"],
    });
    return (result.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) =>
      `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`
    );
  }, selector);
}

async function pageOverflow(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

Deno.test({
  name:
    "[e2e] at 375 px an admin adds and removes an item's route to another supplier, and maps a supplier's game as routes",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);
      const games: GameDto[] = await (await page.request.get(`${server.url}/api/admin/games`))
        .json();
      const genshin = games.find((g) => g.name === "Genshin Impact")!;
      const item = genshin.gameItems.find((i) => i.nameSupplier === "60 Genesis Crystals")!;

      await page.getByRole("navigation", { name: "Admin menu" })
        .getByRole("button", { name: "Games", exact: true }).click();
      await page.locator("tbody tr").filter({
        has: page.getByRole("cell", { name: "EliteDias Genshin Impact", exact: true }),
      }).click();
      await page.getByRole("tab", { name: "Settings" }).click();
      const routes = page.locator(".ag-routes");
      await routes.getByRole("heading", { name: "Routes" }).waitFor();
      await routes.getByLabel("Item", { exact: true }).selectOption({ label: item.nameReseller });
      const list = routes.getByRole("list", { name: "Routes of this item" });
      assert.equal(await list.getByRole("listitem").count(), 1, "its own supplier only");
      assert.match(
        await list.getByRole("listitem").first().innerText(),
        /EliteDias.*own supplier/s,
      );

      await routes.getByLabel("Supplier", { exact: true }).selectOption({ label: "MooGold" });
      await routes.getByLabel("Product ID").fill("3689112");
      await routes.getByRole("button", { name: "Load Items" }).click();
      await routes.getByLabel("Supplier Item").selectOption({
        label: "60 Genesis Crystals · $0.87",
      });
      await routes.getByRole("button", { name: "Add Route" }).click();
      assert.equal(await list.getByRole("listitem").count(), 2);
      assert.match(
        await list.getByRole("listitem").nth(1).innerText(),
        /MooGold.*3689113.*\$0\.87/s,
      );
      assert.equal(await pageOverflow(page), 0, "no sideways scroll with a route listed");
      assert.deepEqual(await axeViolations(page, ".ag-routes"), []);
      await page.screenshot({ path: "/tmp/admin-routes-375.png", fullPage: true });

      await routes.getByRole("button", { name: "Save Routes" }).click();
      await routes.getByText("Routes saved.").waitFor();
      const saved: GameRoutesDto = await (await page.request.get(
        `${server.url}/api/admin/games/${genshin._id}/routes`,
      )).json();
      assert.deepEqual(
        saved.items.find((i) => i.itemKey === item.nameSupplier)!.routes
          .map((r) => [r.supplier, r.game, r.item, r.cost]),
        [["elephant", "genshin", "60 Genesis Crystals", item.cost], [
          "monkey",
          "3689112",
          "3689113",
          0.87,
        ]],
      );

      await routes.getByRole("button", { name: "Remove MooGold" }).click();
      await routes.getByRole("button", { name: "Save Routes" }).click();
      await routes.getByText("Routes saved.").waitFor();
      const cleared: GameRoutesDto = await (await page.request.get(
        `${server.url}/api/admin/games/${genshin._id}/routes`,
      )).json();
      assert.equal(cleared.items.find((i) => i.itemKey === item.nameSupplier)!.routes.length, 1);

      // MooGold's Genshin Impact, already sold through EliteDias: its items become routes instead.
      await page.getByRole("navigation", { name: "Admin menu" })
        .getByRole("button", { name: "Suppliers", exact: true }).click();
      await page.getByRole("tablist", { name: "Suppliers" }).getByRole("tab", { name: "MooGold" })
        .click();
      await page.getByPlaceholder("Search game...").fill("Genshin Impact");
      await page.locator(".supplier-card").filter({
        has: page.getByText("Genshin Impact", { exact: true }),
      }).click();
      await page.getByRole("button", { name: "Add as Routes" }).click();
      await page.getByText("3 item(s) of Genshin Impact now go here when refused.", {
        exact: false,
      }).waitFor();
      assert.equal(await pageOverflow(page), 0, "no sideways scroll on the offer");
      assert.deepEqual(await axeViolations(page, ".route-offer"), []);
      await page.screenshot({ path: "/tmp/admin-route-offer-375.png", fullPage: true });
      const mapped: GameRoutesDto = await (await page.request.get(
        `${server.url}/api/admin/games/${genshin._id}/routes`,
      )).json();
      assert.deepEqual(
        mapped.items.find((i) => i.itemKey === item.nameSupplier)!.routes.map((r) => r.supplier),
        ["elephant", "monkey"],
      );
      assert.deepEqual(alerts, []);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
