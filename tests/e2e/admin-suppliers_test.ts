import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { simControl } from "../helpers/sessions.ts";
import {
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  signInDemoAdminInBrowser,
  waitForIslands,
} from "../helpers/browser.ts";
import { DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";
import { ELITEDIAS_CATALOGUE } from "../../src/integrations/elitedias/catalogue.ts";
import { MOOGOLD_CATALOGUE } from "../../src/integrations/moogold/catalogue.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const HOK = ELITEDIAS_CATALOGUE.find((g) => g.code === "hok")!;
const GENSHIN = MOOGOLD_CATALOGUE.find((p) => p.id === 3689112)!;
/** The Genshin variation the test prices at 0 at MooGold: a launch must leave it out (spec §5). */
const FREE_VARIATION = GENSHIN.variations.find((v) => v.name.endsWith("Welkin Moon"))!;

interface LaunchedEntry {
  name: string;
  supplier: string;
  supplierName: string;
  supplierGameID: string;
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  assert.equal(response.status(), 200, url);
  return await response.json() as T;
}

async function openSuppliers(page: Page) {
  await page.getByRole("navigation", { name: "Admin menu" })
    .getByRole("button", { name: "Suppliers" }).click();
}

async function openTab(page: Page, label: "EliteDias" | "MooGold") {
  await page.getByRole("tablist", { name: "Suppliers" }).getByRole("tab", { name: label }).click();
}

/**
 * Opens the supplier game whose card shows exactly `card` (its name, or the EliteDias code beside
 * it) after searching for it; its detail is headed `heading`.
 */
async function openGame(page: Page, card: string, heading = card) {
  await page.getByPlaceholder("Search game...").fill(card);
  await page.locator(".supplier-card").filter({
    has: page.getByText(card, { exact: true }),
  }).click();
  await page.getByRole("heading", { name: heading, exact: true }).waitFor();
}

/** The detail's launched note: the spec's words with a check icon labelled "launched". */
async function waitForLaunchedNote(page: Page) {
  const note = page.locator(".launched");
  await note.getByText("This game has been launched").waitFor();
  await note.getByRole("img", { name: "launched" }).waitFor();
}

Deno.test({
  name:
    "[e2e] admins launch supplier games from the Suppliers screen, priced at the supplier's costs",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    const alerts: string[] = [];
    try {
      const page = await browser.newPage();
      page.on("dialog", async (dialog) => {
        alerts.push(dialog.message());
        await dialog.dismiss();
      });
      await signInDemoAdminInBrowser(page, server.url);
      const launchedUrl = `${server.url}/api/launched_games`;
      const launchedAtStart = await getJson<LaunchedEntry[]>(page, launchedUrl);

      await t.step("an EliteDias game is searched, opened and launched", async () => {
        await openSuppliers(page);
        await openTab(page, "EliteDias");
        const genshinCard = page.locator(".supplier-card").filter({
          has: page.getByText("genshin", { exact: true }),
        });
        assert.match(await genshinCard.innerText(), /^Genshin Impact\s+genshin\s+Launched$/);
        // Mobile Legends sells mlbb_special and mlbb_global as its packages: both are launched.
        for (const code of ["mlbb_special", "mlbb_global"]) {
          const card = page.locator(".supplier-card").filter({
            has: page.getByText(code, { exact: true }),
          });
          assert.match(await card.innerText(), /^Mobile Legends \(\w+\)\s+mlbb_\w+\s+Launched$/);
        }
        await page.getByPlaceholder("Search game...").fill("ho");
        await page.locator(".supplier-card", { hasText: "honkai_star_rail" }).waitFor();
        assert.equal(await genshinCard.count(), 0, "the search hides games it does not match");
        await openGame(page, "hok", "Honor of Kings");

        await page.getByText("$0.24", { exact: true }).waitFor();
        await page.getByText("$1.15", { exact: true }).waitFor();
        await page.getByText("Server list: None", { exact: true }).waitFor();
        await page.getByText("userid", { exact: true }).waitFor();
        await page.getByText(HOK.notes, { exact: true }).waitFor();

        await page.getByPlaceholder("Search item...").fill("80 tok");
        await page.getByText("80 Tokens", { exact: true }).waitFor();
        assert.equal(await page.getByText("16 Tokens", { exact: true }).count(), 0);
        await page.getByPlaceholder("Search item...").fill("");

        await page.getByRole("button", { name: "Launch this Game" }).click();
        await page.getByRole("button", { name: "Cancel Launch" }).click();
        assert.equal(await page.getByRole("button", { name: "Launch Game!" }).count(), 0);
        await page.getByRole("button", { name: "Launch this Game" }).click();

        const supplierName = page.getByLabel("Supplier Name");
        assert.equal(await supplierName.inputValue(), "hok");
        assert.equal(await supplierName.getAttribute("readonly"), "");
        // Name starts as the supplier's name for the game, so the first Launch Game! succeeds.
        const name = page.getByLabel("Name", { exact: true });
        assert.equal(await name.inputValue(), "Honor of Kings");
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await name.scrollIntoViewIfNeeded();
          assert.equal(await pageOverflow(page), 0, `at ${width} px`);
          await saveScreenshot(page, `launch-form-${width}`);
        }
        await page.getByLabel("Tagline").fill("Tokens in seconds");
        await page.getByLabel("Consumer Markup %").fill("8.8");
        await page.getByLabel("Reseller Markup %").fill("5");
        await page.getByRole("button", { name: "Launch Game!" }).click();

        await page.getByText("Game successfully launched!", { exact: true }).waitFor();
        await waitForLaunchedNote(page);
        assert.equal(await page.getByRole("button", { name: "Launch this Game" }).count(), 0);

        await page.getByRole("button", { name: "Back to Games" }).click();
        const hokCard = page.locator(".supplier-card").filter({
          has: page.getByText("hok", { exact: true }),
        });
        assert.match(await hokCard.innerText(), /Launched/);
      });

      await t.step(
        "a MooGold product is opened and launched without its 0-priced variation",
        async () => {
          await simControl(server.url, "moogold", "setCost", [FREE_VARIATION.id, "0"]);
          await openTab(page, "MooGold");
          await page.locator(".supplier-card").first().waitFor();
          const titles = await page.locator(".supplier-card-name").allInnerTexts();
          assert.deepEqual(titles, [...titles].sort((a, b) => a.localeCompare(b)));
          await openGame(page, GENSHIN.name);

          await page.getByText("$0.87", { exact: true }).waitFor();
          await page.getByText("$0.00", { exact: true }).waitFor();
          await page.getByText("America: os_usa", { exact: true }).waitFor();
          await page.getByText("Server", { exact: true }).waitFor();

          await page.getByRole("button", { name: "Launch this Game" }).click();
          assert.equal(await page.getByLabel("Supplier Name").inputValue(), GENSHIN.name);
          const name = page.getByLabel("Name", { exact: true });
          assert.equal(await name.inputValue(), GENSHIN.name, "the product's title");
          await name.fill("Genshin Impact (MooGold)");
          await page.getByLabel("Game Currency").fill("Genesis Crystals");
          await page.getByLabel("Consumer Markup %").fill("10");
          await page.getByLabel("Set % for individual resellers").check();
          assert.equal(await page.getByLabel("Reseller Markup %").count(), 0);
          await page.getByLabel(DEMO_RESELLER.name, { exact: true }).fill("3");
          await page.getByRole("button", { name: "Launch Game!" }).click();

          await page.getByText("Game successfully launched!", { exact: true }).waitFor();
          await waitForLaunchedNote(page);
        },
      );

      await t.step("both launches are stored with the supplier's items and costs", async () => {
        const launched = await getJson<LaunchedEntry[]>(page, launchedUrl);
        assert.equal(launched.length, launchedAtStart.length + 2);
        assert.ok(launched.some((g) => g.supplier === "elephant" && g.supplierName === "hok"));
        assert.ok(
          launched.some((g) =>
            g.supplier === "monkey" && g.supplierName === GENSHIN.name &&
            g.supplierGameID === String(GENSHIN.id)
          ),
        );

        const games = await getJson<GameDto[]>(page, `${server.url}/api/admin/games`);
        const hok = games.find((g) => g.supplier === "elephant" && g.supplierName === "hok")!;
        assert.equal(hok.name, "Honor of Kings");
        assert.equal(hok.tagline, "Tokens in seconds");
        assert.equal(hok.consumerMarkup, 8.8);
        assert.equal(hok.resellerMarkupAll, 5);
        assert.equal(hok.markupForIndividualResellers, false);
        assert.equal(hok.requiresServerID, false);
        assert.equal(hok.supplierNotes, HOK.notes);
        assert.deepEqual(
          hok.gameItems.map((i) => [i.nameSupplier, i.nameReseller, i.nameConsumer.header, i.cost]),
          Object.entries(HOK.denominations).map(([name, price]) => [name, name, name, +price]),
        );

        const genshin = games.find((g) =>
          g.supplier === "monkey" && g.supplierName === GENSHIN.name
        )!;
        assert.equal(genshin.name, "Genshin Impact (MooGold)");
        assert.equal(genshin.supplierGameID, String(GENSHIN.id));
        assert.equal(genshin.gameCurrency, "Genesis Crystals");
        assert.equal(genshin.consumerMarkup, 10);
        assert.equal(genshin.markupForIndividualResellers, true);
        assert.deepEqual(genshin.resellerMarkup, { [DEMO_RESELLER.name]: 3 });
        assert.equal(genshin.requiresServerID, true);
        assert.deepEqual(genshin.servers, GENSHIN.serverList);
        assert.equal(genshin.gameImage, GENSHIN.imageUrl);
        assert.deepEqual(
          genshin.gameItems.map((i) => [i.id, i.nameSupplier, i.nameReseller, i.cost]),
          GENSHIN.variations.filter((v) => v.id !== FREE_VARIATION.id).map((v) => [
            String(v.id),
            v.name,
            v.name.slice(`${GENSHIN.name} - `.length),
            +v.price,
          ]),
        );
      });

      await t.step("Audit reads each launch as words, its supplier by name", async () => {
        await page.getByRole("navigation", { name: "Admin menu" })
          .getByRole("button", { name: "Audit" }).click();
        const audit = page.getByRole("region", { name: "Audit" });
        await page.getByLabel("Action").fill("game launched");
        // Newest first: this test's two launches, then the demo's own.
        const rows = audit.getByRole("row").filter({ hasText: "Game launched" });
        await rows.nth(1).waitFor();
        assert.match(await rows.nth(0).innerText(), /supplier: MooGold\s+supplierName: Genshin/);
        assert.match(await rows.nth(1).innerText(), /supplier: EliteDias\s+supplierName: hok/);
        assert.doesNotMatch(
          await audit.innerText(),
          /elephant|monkey/,
          "no code names on the admin's screens",
        );
        await saveScreenshot(page, "audit-launches-1280");
      });

      await t.step("supplier failures show the spec's texts and launch nothing", async () => {
        await simControl(server.url, "elitedias", "failEndpoint", [
          "elitedias_games_data",
          "error",
        ]);
        await page.reload();
        await waitForIslands(page);
        await openSuppliers(page);
        await page.getByRole("alert").filter({ hasText: "Fail to get ED games" }).waitFor();
        assert.ok(alerts.includes("Fail to get ED games"));
        await simControl(server.url, "elitedias", "clearFaults", []);

        await simControl(server.url, "moogold", "failEndpoint", [
          "product/product_detail",
          "error",
        ]);
        await openTab(page, "MooGold");
        await openGame(page, "Valorant");
        await page.getByRole("alert").filter({ hasText: "Fail to get MG product detail" })
          .waitFor();
        assert.ok(alerts.includes("Fail to get MG product detail"));
        await simControl(server.url, "moogold", "clearFaults", []);

        const before = await getJson<LaunchedEntry[]>(page, launchedUrl);
        await page.getByRole("button", { name: "Back to Games" }).click();
        await openGame(page, "Mobile Legends");
        await page.getByText("$1.55", { exact: true }).waitFor();
        await simControl(server.url, "moogold", "failEndpoint", [
          "product/product_detail",
          "error",
        ]);
        await page.getByRole("button", { name: "Launch this Game" }).click();
        await page.getByLabel("Name", { exact: true }).fill("MLBB (MooGold)");
        await page.getByRole("button", { name: "Launch Game!" }).click();
        await page.getByRole("alert").filter({ hasText: "Error launching game" }).waitFor();
        assert.ok(alerts.includes("Error launching game"));
        assert.equal(await page.getByText("Game successfully launched!").count(), 0);
        await simControl(server.url, "moogold", "clearFaults", []);

        const after = await getJson<LaunchedEntry[]>(page, launchedUrl);
        assert.deepEqual(after, before, "a failed launch adds no game");
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
