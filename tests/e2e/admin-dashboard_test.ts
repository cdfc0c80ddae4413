// The admin dashboard in a real browser: the console lands on it, the cards, the bold Lifetime row
// and both server-drawn charts show the fixture's figures, Refresh reads them again, and the
// exclusions form changes what is counted and listed.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { seedDashboardFixture } from "../helpers/dashboard-fixture.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";

const SCREENS = Deno.env.get("SCREENSHOT_DIR");

async function cards(page: Page): Promise<string[]> {
  return (await page.locator(".db-cards .db-card").allInnerTexts()).map((t) =>
    t.replace(/\s+/g, " ")
  );
}

async function rowCells(page: Page, caption: string, name: string): Promise<string[]> {
  const row = page.locator("table", { has: page.locator(`caption:text-is("${caption}")`) })
    .first().locator("tbody tr", { has: page.locator(`th:text-is("${name}")`) });
  return await row.locator("th, td").allInnerTexts();
}

const CHARTS = ["Revenue and profit per day, last 30 days", "Orders per hour, last 24 hours"];

interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The boxes of a chart's parts on screen: its SVG, y-axis labels, legend texts and x labels. */
async function chartBoxes(page: Page, name: string) {
  return await page.getByRole("img", { name }).evaluate((svg) => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: el.textContent };
    };
    const all = (selector: string) => [...svg.querySelectorAll(selector)].map(box);
    return {
      svg: box(svg),
      yLabels: all(".db-y-axis text"),
      legend: all(".db-legend text"),
      xLabels: all(".db-x-axis text"),
    };
  });
}

const inside = (inner: Rect, outer: Rect) =>
  inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

const overlap = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Both charts keep their y-axis labels and legend inside them, and no two x labels overlap. */
async function assertChartsReadable(page: Page, width: number) {
  for (const name of CHARTS) {
    const chart = await chartBoxes(page, name);
    assert.ok(chart.svg.left >= 0 && chart.svg.right <= width, `${name} fits the window`);
    assert.ok(chart.yLabels.length >= 2, `${name}: y-axis labels`);
    assert.ok(chart.xLabels.length >= 3, `${name}: x labels`);
    for (const part of [...chart.yLabels, ...chart.legend, ...chart.xLabels]) {
      assert.ok(inside(part, chart.svg), `${name} at ${width}px: '${part.text}' is cut`);
    }
    chart.xLabels.forEach((a, i) =>
      chart.xLabels.slice(i + 1).forEach((b) =>
        assert.ok(!overlap(a, b), `${name} at ${width}px: '${a.text}' overlaps '${b.text}'`)
      )
    );
    const legend = chart.legend.map((l) => l.text);
    assert.deepEqual(legend, name.startsWith("Revenue") ? ["Revenue", "Profit"] : ["Orders"]);
  }
}

Deno.test({
  name: "[e2e] admin dashboard: figures, bold Lifetime, charts, refresh and exclusions",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, (db) => seedDashboardFixture(db, new Date()));
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });

      await t.step("the console opens on the dashboard with the lifetime figures", async () => {
        await signInDemoAdminInBrowser(page, server.url);
        const main = page.locator("main[data-view]");
        assert.equal(await main.getAttribute("data-view"), "dashboard");
        await page.locator(".db-card").first().waitFor();
        // Every successful order since 4 Apr 2025; nothing is excluded yet.
        assert.deepEqual(await cards(page), [
          "Total Orders 10",
          "Total Revenue $180.49",
          "Total Profit $113.25",
        ]);
        assert.deepEqual(await rowCells(page, "Orders", "Lifetime"), [
          "Lifetime",
          "10",
          "$18.05",
          "$180.49",
          "$67.24",
          "$113.25",
          "62.75%",
        ]);
        const weight = await page.locator("tr.db-bold td").first().evaluate((td) =>
          getComputedStyle(td).fontWeight
        );
        assert.equal(weight, "700");
        assert.deepEqual(
          await page.locator("table:has(caption:text-is('Orders')) tbody th").allInnerTexts(),
          ["Lifetime", "Past 7 Days", "Past 24 Hours", "Past 8 Hours"],
        );
      });

      await t.step("both charts render as SVG with bars and labels", async () => {
        for (const name of CHARTS) {
          const svg = page.getByRole("img", { name });
          const box = await svg.boundingBox();
          assert.ok(box && box.width > 300 && box.height > 100, `${name}: ${JSON.stringify(box)}`);
          const tallest = await svg.locator("rect").evaluateAll((rects) =>
            Math.max(...rects.map((r) => Number(r.getAttribute("height") ?? 0)))
          );
          assert.ok(tallest > 10, `${name} draws bars (${tallest})`);
        }
        await assertChartsReadable(page, 1280);
      });

      if (SCREENS) {
        await page.screenshot({ path: `${SCREENS}/dashboard-1280.png`, fullPage: true });
      }

      await t.step(
        "an excluded account set by an admin leaves the figures after Refresh",
        async () => {
          const bad = await page.request.put(`${server.url}/api/dashboard/exclusions`, {
            data: { excludedAccounts: "Internal One", hiddenResellerNames: [] },
            headers: { Origin: server.url },
          });
          assert.equal(bad.status(), 400);
          const put = await page.request.put(`${server.url}/api/dashboard/exclusions`, {
            data: { excludedAccounts: ["internal one"], hiddenResellerNames: [] },
            headers: { Origin: server.url },
          });
          assert.equal(put.status(), 200, await put.text());
          await page.getByRole("button", { name: "Refresh" }).click();
          await page.waitForFunction(() =>
            document.querySelector(".db-card strong")?.textContent === "9"
          );
          assert.deepEqual(await cards(page), [
            "Total Orders 9",
            "Total Revenue $80.50",
            "Total Profit $14.26",
          ]);
          assert.equal(await page.getByLabel(/^Internal accounts/).inputValue(), "internal one");
        },
      );

      await t.step("the form hides a name from the Resellers tables", async () => {
        const balances = page.locator("table:has(caption:text-is('Account Balance')) tbody th");
        assert.ok((await balances.allInnerTexts()).includes("Hidden Shop"));
        assert.ok(!(await balances.allInnerTexts()).includes("Internal One"));
        await page.getByLabel(/^Names hidden/).fill("Hidden Shop");
        await page.getByRole("button", { name: "Save" }).click();
        await page.getByText("Exclusions saved.").waitFor();
        await page.waitForFunction(() =>
          ![...document.querySelectorAll("table tbody th")].some((th) =>
            th.textContent === "Hidden Shop"
          )
        );
        assert.deepEqual(await rowCells(page, "Account Balance", "Alpha"), ["Alpha", "$100.00"]);
        // Its orders still count: the totals do not move.
        assert.equal((await cards(page))[0], "Total Orders 9");
      });

      await t.step("at 375 px the page does not scroll sideways", async () => {
        await page.setViewportSize({ width: 375, height: 800 });
        // The console switches to its narrow layout on the resize event; measure after it has.
        await page.waitForFunction(() => document.querySelector(".shell.mobile") !== null);
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth
        );
        assert.equal(overflow, 0);
      });

      await t.step(
        "at 375 px the charts keep their y axis and legend, x labels apart",
        async () => {
          // The charts are drawn again at their new width once it is known.
          await page.waitForFunction(() =>
            [...document.querySelectorAll(".db-chart svg")].every((svg) =>
              svg.getBoundingClientRect().right <= 375
            )
          );
          await assertChartsReadable(page, 375);
        },
      );

      await t.step("at 375 px every figure of every table is in sight, named", async () => {
        const hidden = await page.locator(".db-figures td").evaluateAll((cells) =>
          cells.flatMap((td) => {
            const box = td.getBoundingClientRect();
            const region = td.closest("[role=region]")!;
            const room = region.getBoundingClientRect();
            const named = getComputedStyle(td, "::before").content.replaceAll('"', "");
            const seen = box.left >= room.left && box.right <= room.right && box.right <= 375 &&
              region.scrollWidth <= region.clientWidth;
            return seen && named !== "none" ? [] : [`${named}: ${td.textContent}`];
          })
        );
        assert.deepEqual(hidden, []);
        assert.deepEqual(
          await rowCells(page, "Orders", "Lifetime").then((cells) => cells.slice(3)),
          ["$80.50", "$66.24", "$14.26", "17.71%"],
        );
        const lifetime = page.locator("table:has(caption:text-is('Orders')) tbody tr").first();
        const labels = await lifetime.locator("td").evaluateAll((cells) =>
          cells.map((td) => getComputedStyle(td, "::before").content.replaceAll('"', ""))
        );
        assert.deepEqual(labels, [
          "Orders",
          "Average Order",
          "Revenue",
          "Cost",
          "Profit",
          "Margin",
        ]);
        if (SCREENS) {
          await page.screenshot({ path: `${SCREENS}/dashboard-375.png`, fullPage: true });
        }
      });
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
