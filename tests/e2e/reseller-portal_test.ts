import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoResellerInBrowser } from "../helpers/browser.ts";
import { DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";

/** "$1,234.56" → 123456: the test compares money in cents, as the app keeps it. */
function cents(text: string): number {
  const match = text.match(/\$([\d,]+)\.(\d{2})/);
  assert.ok(match, `no dollar amount in ${JSON.stringify(text)}`);
  return Number(match[1].replaceAll(",", "")) * 100 + Number(match[2]);
}

function dollars(amountCents: number): string {
  const whole = Math.floor(amountCents / 100).toLocaleString("en-US");
  return `$${whole}.${String(amountCents % 100).padStart(2, "0")}`;
}

async function headerBalance(page: Page): Promise<number> {
  return cents(await page.getByText(/^Account Balance: \$/).innerText());
}

/** Opens a game from the grid, verifies the account and orders the first item of a section. */
async function orderFirstItem(
  page: Page,
  itemSection: ReturnType<Page["locator"]>,
): Promise<number> {
  const card = itemSection.locator(".rs-item").first();
  const price = cents(await card.locator(".item-price").innerText());
  await card.click();
  const dialog = page.getByRole("dialog");
  assert.match(await dialog.innerText(), /^Proceed with: .+ \(\$\d+\.\d{2}\)\?/);
  assert.equal(cents(await dialog.locator("p").innerText()), price);
  await dialog.getByRole("button", { name: "Place Order" }).click();
  return price;
}

Deno.test({
  name: "[e2e] a reseller verifies, orders Mobile Legends and PUBG, tracks and exports orders, " +
    "and sees the debits in the balance history",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({
        viewport: { width: 1400, height: 900 },
        acceptDownloads: true,
      });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      const verifyCalls: string[] = [];
      page.on("request", (request) => {
        if (/verify_id|product_validate/.test(request.url())) verifyCalls.push(request.url());
      });

      await signInDemoResellerInBrowser(page, server.url);
      await page.getByText("Account Balance: $1,000.00").waitFor();
      const start = await headerBalance(page);

      // Mobile Legends: empty User ID does nothing; an unknown account is an invalid user.
      await page.locator(".rs-game", { hasText: "Mobile Legends" }).click();
      await page.getByRole("heading", { name: "Mobile Legends" }).waitFor();
      const verify = page.getByRole("button", { name: "Verify" });
      await verify.waitFor();
      await page.getByLabel("Server ID").fill("2222");
      await verify.click();
      await page.waitForTimeout(300);
      assert.deepEqual(verifyCalls, []);
      assert.equal(await page.locator(".rs-banner").count(), 0);

      await page.getByLabel("User ID").fill("55555555");
      await page.getByLabel("Server ID").fill("5555");
      await verify.click();
      await page.getByText("Invalid user").waitFor();
      await page.getByText("Please check and try again.").waitFor();
      assert.equal(verifyCalls.length, 1);

      // A Philippine account gets the special package, with its Double Recharge section.
      await page.getByLabel("User ID").fill("22222222");
      await page.getByLabel("Server ID").fill("2222");
      await verify.click();
      await page.getByRole("heading", { name: "Double Recharge", exact: true }).waitFor();
      await page.locator(".rs-verified").getByRole("img", { name: "Verified" }).waitFor();
      const nickname = (await page.locator(".rs-verified").innerText()).trim();
      assert.ok(nickname.length > 0);
      await page.getByPlaceholder("Search product...").fill("no such item");
      await page.getByText("No items available").waitFor();
      await page.getByPlaceholder("Search product...").fill("");
      const mlbbPrice = await orderFirstItem(page, page.locator(".rs-catalogue"));
      await page.getByText(`Placed order successfully for User: ${nickname}`).waitFor();
      await page.getByText("You may track the order status in the Orders page.").waitFor();
      assert.equal(await page.getByLabel("User ID").inputValue(), "");
      await page.getByText(`Account Balance: ${dollars(start - mlbbPrice)}`).waitFor();

      // PUBG Mobile (elephant) through the generic view.
      await page.getByRole("button", { name: "Back" }).click();
      await page.locator(".rs-game", { hasText: "PUBG Mobile" }).click();
      await page.getByRole("heading", { name: "PUBG Mobile" }).waitFor();
      await page.getByLabel("User ID").fill("5551234");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.locator(".rs-verified").waitFor();
      const pubgUser = (await page.locator(".rs-verified").innerText()).trim();
      const pubgPrice = await orderFirstItem(page, page.locator(".rs-catalogue"));
      await page.getByText(`Placed order successfully for User: ${pubgUser}`).waitFor();
      const end = start - mlbbPrice - pubgPrice;
      await page.getByText(`Account Balance: ${dollars(end)}`).waitFor();

      // Orders: both are listed; search by id; refresh one until the supplier completes it.
      await page.getByRole("button", { name: "Orders" }).click();
      await page.getByRole("heading", { name: "Orders" }).waitFor();
      const rows = page.locator("tbody tr[data-order-id]");
      await rows.nth(1).waitFor();
      assert.equal(await rows.count(), 2);
      const [pubgId, mlbbId] = await rows.evaluateAll((trs) =>
        trs.map((tr) => tr.getAttribute("data-order-id")!)
      );
      assert.match(await rows.nth(0).innerText(), /PUBG Mobile/);
      assert.match(await rows.nth(1).innerText(), /Mobile Legends/);
      await rows.nth(1).getByRole("img", { name: "Diamonds" }).first().waitFor();

      const openCount = (await page.locator(".rs-status").allInnerTexts())
        .filter((s) => /^(New|Pending)$/.test(s.trim())).length;
      const refreshAll = page.getByRole("button", { name: "Refresh All Status" });
      assert.equal(await refreshAll.count(), openCount > 1 ? 1 : 0);

      await page.getByPlaceholder("Search order...").fill(mlbbId.toUpperCase());
      await rows.nth(1).waitFor({ state: "detached" });
      assert.equal(await rows.count(), 1);
      assert.equal(await rows.first().getAttribute("data-order-id"), mlbbId);
      const status = rows.first().locator(".rs-status");
      const deadline = Date.now() + 30_000;
      while ((await status.innerText()).trim() !== "Success") {
        assert.ok(Date.now() < deadline, `still ${await status.innerText()}`);
        await page.waitForTimeout(1000);
        await rows.first().getByRole("button", { name: "Refresh status" }).click();
        // The list has reloaded once the refreshing note is gone.
        await page.getByText("Refreshing order status...").waitFor({ state: "detached" });
      }
      await page.getByPlaceholder("Search order...").fill("");
      await page.locator(`tr[data-order-id="${pubgId}"]`).waitFor();

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Export" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /\.xlsx$/);

      // My Account: exchange rate and the two debits, newest first.
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByText(
        /^Please note that our current exchange rate is 1 USD to \d+\.\d{4} SGD\.$/,
      )
        .waitFor();
      const history = page.locator(".rs-history tbody tr");
      await history.nth(2).waitFor();
      const cells = await history.evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll("td span.rs-type, td:not(:last-child)")].map((el) =>
            el.textContent ?? ""
          )
        )
      );
      assert.equal(cells.length, 3);
      assert.deepEqual(cells.map((c) => c[3]), [
        "Order placed",
        "Order placed",
        "Starting Account Balance",
      ]);
      assert.deepEqual(cells.map((c) => [cents(c[1]), cents(c[2])]), [
        [start - mlbbPrice, end],
        [start, start - mlbbPrice],
        [0, start],
      ]);
      await history.first().getByRole("button", { name: "Order details" }).click();
      const popup = page.getByRole("dialog", { name: "Order details" });
      assert.match(await popup.innerText(), new RegExp(pubgId));

      // Password: a server refusal shows under the fields (a short new one, a wrong current one),
      // gone again on editing; a success clears both fields and its banner hides on editing.
      const current = page.getByLabel("Current password");
      const password = page.getByPlaceholder("New password");
      assert.equal(await current.getAttribute("type"), "password");
      assert.equal(await password.getAttribute("type"), "password");
      const refusal = async () => {
        await page.getByRole("button", { name: "Save" }).click();
        const shown = page.locator(".rs-password [role=alert]");
        await shown.waitFor();
        assert.equal(await password.getAttribute("aria-invalid"), "true");
        return await shown.innerText();
      };
      await current.fill(DEMO_RESELLER.password);
      await password.fill("short");
      assert.match(await refusal(), /^Fail to save settings, please try again\. Error: ./);
      await current.fill("not my password");
      await page.locator(".rs-password [role=alert]").waitFor({ state: "detached" });
      await password.fill("a-new-reseller-pass");
      assert.equal(
        await refusal(),
        "Fail to save settings, please try again. Error: Please check your current password.",
      );
      await current.fill(DEMO_RESELLER.password);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Successfully changed password").waitFor();
      assert.deepEqual([await current.inputValue(), await password.inputValue()], ["", ""]);
      await password.fill("x");
      await page.getByText("Successfully changed password").waitFor({ state: "detached" });

      assert.deepEqual(alerts, []);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/resellers$/);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
