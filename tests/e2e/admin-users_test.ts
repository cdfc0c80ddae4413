import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { findOrInsertConsumer } from "../../src/db/repositories/consumers.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";

const SCREENS = Deno.env.get("SCREENS_DIR");

async function shoot(page: Page, name: string) {
  if (SCREENS) await page.screenshot({ path: `${SCREENS}/${name}.png`, fullPage: true });
}

/** The Resellers row whose name cell reads exactly `name`. */
function resellerRow(page: Page, name: string) {
  return page.locator("tbody tr").filter({
    has: page.getByRole("cell", { name, exact: true }),
  });
}

async function moveBalance(page: Page, kind: "Top Up" | "Deduct", name: string, amount: string) {
  await page.getByRole("button", { name: `${kind} ${name}` }).click();
  const label = kind === "Top Up" ? "Amount to Top Up" : "Amount to Deduct";
  await page.getByRole("spinbutton", { name: label }).fill(amount);
  await page.getByRole("group", { name: label }).getByRole("button", { name: kind }).click();
}

/**
 * Where an open amount box sits at a phone's width: inside the window, touching its row from
 * below or above, the row's name whole and uncovered, the table not scrolled sideways.
 */
async function popoverProblems(page: Page, name: string, label: string): Promise<string[]> {
  const box = await page.getByRole("group", { name: label }).boundingBox();
  return await resellerRow(page, name).evaluate((row, { box, name }) => {
    const problems: string[] = [];
    const nameCell = [...row.querySelectorAll("td")].find((td) => td.textContent === name)!;
    const region = row.closest("[role=region]")!;
    const r = row.getBoundingClientRect();
    const n = nameCell.getBoundingClientRect();
    const room = region.getBoundingClientRect();
    const view = { width: innerWidth, height: innerHeight };
    if (!box) return ["no amount box"];
    const b = { top: box.y, bottom: box.y + box.height, left: box.x, right: box.x + box.width };
    if (b.left < 0 || b.right > view.width || b.top < 0 || b.bottom > view.height) {
      problems.push(`box ${JSON.stringify(b)} outside the ${view.width}x${view.height} window`);
    }
    const gap = b.top >= r.bottom ? b.top - r.bottom : r.top - b.bottom;
    if (gap < 0 || gap > 16) problems.push(`box ${gap}px from its row`);
    if (n.left < room.left || n.right > room.right || n.left < 0 || n.right > view.width) {
      problems.push(`name cell ${n.left}-${n.right} cut (region ${room.left}-${room.right})`);
    }
    if (nameCell.scrollWidth > nameCell.clientWidth) problems.push("name clipped in its cell");
    if (n.top < b.bottom && b.top < n.bottom && n.left < b.right && b.left < n.right) {
      problems.push("the box covers the name");
    }
    if (region.scrollLeft !== 0) problems.push(`table scrolled ${region.scrollLeft}px sideways`);
    return problems;
  }, { box, name });
}

Deno.test({
  name:
    "[e2e] an admin creates a reseller with markups, tops up, deducts, sees the history rows and deletes it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    await withHandle(
      tdb,
      (db) =>
        db.transaction().execute((trx) =>
          findOrInsertConsumer(trx, {
            name: "Ana Buyer",
            email: "ana@buyer.example",
            phone: "+65 8111",
          })
        ),
    );
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);
      await page.getByRole("navigation", { name: "Admin menu" })
        .getByRole("button", { name: "Users" }).click();
      await page.getByRole("tab", { name: "Resellers", selected: true }).waitFor();
      await resellerRow(page, "Demo Reseller").getByText("1,000.00").waitFor();

      // Create Reseller: details and markups, one field per launched game besides mlbb.
      await page.getByRole("button", { name: "Create New Reseller" }).click();
      const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
      await crumbs.getByText("Create New Reseller").waitFor();
      assert.equal(await crumbs.getByRole("button", { name: "Resellers" }).count(), 1);
      await page.getByLabel("PUBG Mobile").waitFor();

      // An empty Create Reseller: our message under each required field, no browser popup, no
      // request; the required fields are marked, the mark outside their accessible names.
      await page.getByRole("button", { name: "Create Reseller" }).click();
      const expected: [string, string, string][] = [
        ["textbox", "Name", "Name is required"],
        ["textbox", "Email", "Email is required"],
        ["textbox", "Password", "Password is required"],
        ["spinbutton", "mlbb", "Price Markup % is required"],
        ["spinbutton", "mlbb_global", "Price Markup % is required"],
        ["spinbutton", "mlbb_special", "Price Markup % is required"],
      ];
      for (const [role, name, message] of expected) {
        const input = page.getByRole(role as "textbox", { name, exact: true });
        assert.equal(await input.getAttribute("aria-invalid"), "true", name);
        assert.equal(await input.evaluate((el) => (el as HTMLInputElement).required), true, name);
        const said = page.locator(`#${await input.getAttribute("aria-describedby")}`);
        assert.equal((await said.innerText()).trim(), message, name);
        const mark = await page.locator("label", { has: input }).locator(".au-required")
          .evaluate((el) => getComputedStyle(el, "::after").content);
        assert.match(mark, /\*/, `${name} is marked`);
      }
      assert.equal(await page.locator("[aria-invalid=true]").count(), expected.length);
      assert.equal(
        await page.locator("label", { has: page.getByLabel("Phone") }).locator(
          ".au-required",
        ).count(),
        0,
      );
      assert.ok(await page.getByLabel("Name").evaluate((el) => el === document.activeElement));
      await page.getByText("required", { exact: true }).waitFor();
      await crumbs.getByText("Create New Reseller").waitFor();
      assert.deepEqual(alerts, []);
      await shoot(page, "admin-create-reseller-empty-1280");
      await page.getByLabel("Email").fill("not-an-email");
      assert.equal(await page.getByLabel("Email").getAttribute("aria-invalid"), null);
      await page.getByRole("button", { name: "Create Reseller" }).click();
      await page.getByText("Please enter a valid email address").waitFor();

      await page.getByLabel("Name").fill("Eve Reseller");
      await page.getByLabel("Phone").fill("+65 9000 0001");
      await page.getByLabel("Email").fill("eve@resell.example");
      await page.getByLabel("Password").fill("eve's long password");
      assert.equal(await page.getByLabel("Password").getAttribute("type"), "password");
      await page.getByLabel("Balance").fill("100");
      await page.getByLabel("Remarks").fill(
        "Signed at the expo; pays by bank transfer at the start of each month, receipts by email; " +
          "contract files.example/contracts/eve_reseller_2026_signed_at_the_expo.pdf",
      );
      await page.getByLabel("Disable Discounts").check();
      await page.getByLabel("mlbb", { exact: true }).fill("5");
      await page.getByLabel("mlbb_global").fill("6");
      await page.getByLabel("mlbb_special").fill("7.5");
      await page.getByLabel("PUBG Mobile").fill("3");
      await shoot(page, "create-reseller-1280");
      await page.getByRole("button", { name: "Create Reseller" }).click();

      // Back on the list: search, then top up and deduct through the popovers.
      await resellerRow(page, "Eve Reseller").waitFor();
      await page.getByPlaceholder("Search reseller...").fill("9000 0001");
      assert.equal(await page.locator("tbody tr").count(), 1);
      const row = resellerRow(page, "Eve Reseller");
      await row.getByText("100.00").waitFor();
      await moveBalance(page, "Top Up", "Eve Reseller", "1234.5");
      await page.getByText(
        "Successfully topped up $1,234.50 for Eve Reseller. New balance: $1,334.50",
      ).waitFor();
      await row.getByText("1,334.50").waitFor();
      await moveBalance(page, "Deduct", "Eve Reseller", "34.5");
      await page.getByText(
        "Successfully deducted $34.50 from Eve Reseller. New balance: $1,300.00",
      ).waitFor();
      await moveBalance(page, "Deduct", "Eve Reseller", "5000");
      for (let i = 0; i < 100 && alerts.length === 0; i++) await page.waitForTimeout(50);
      // The refused deduction leaves no earlier success banner claiming otherwise.
      assert.equal(await page.getByText(/^Successfully /).count(), 0);
      await row.getByText("1,300.00").waitFor();
      assert.deepEqual(alerts, [
        "Failure deduct, please try again. Error: Cannot deduct $5,000.00: Eve Reseller's balance is only $1,300.00",
      ]);
      await page.keyboard.press("Escape");
      await shoot(page, "resellers-1280");

      // At 375 px the row stacks, so its buttons are in sight beside its whole name; the amount
      // box opens against the row, under it, or over it when the row ends the window.
      await page.setViewportSize({ width: 375, height: 800 });
      const table = page.getByRole("region", { name: "Resellers" });
      await page.waitForFunction(
        (el) => el!.scrollWidth <= el!.clientWidth,
        await table.elementHandle(),
      );
      await page.getByRole("button", { name: "Top Up Eve Reseller" }).click();
      assert.deepEqual(await popoverProblems(page, "Eve Reseller", "Amount to Top Up"), []);
      await page.keyboard.press("Escape");
      const rowEnd = await row.evaluate((el) => el.getBoundingClientRect().bottom);
      await page.setViewportSize({ width: 375, height: Math.ceil(rowEnd) + 4 });
      await page.getByRole("button", { name: "Deduct Eve Reseller" }).click();
      assert.deepEqual(await popoverProblems(page, "Eve Reseller", "Amount to Deduct"), []);
      const over = await page.getByRole("group", { name: "Amount to Deduct" }).boundingBox();
      assert.ok(over!.y + over!.height <= rowEnd, "no room below the row: the box is over it");
      // Its field has the focus, so the amount can be typed at once; Escape gives it back.
      const field = page.getByRole("spinbutton", { name: "Amount to Deduct" });
      assert.ok(await field.evaluate((el) => el === document.activeElement));
      await shoot(page, "resellers-popover-375");
      await page.keyboard.press("Escape");
      assert.ok(
        await page.getByRole("button", { name: "Deduct Eve Reseller" }).evaluate((el) =>
          el === document.activeElement
        ),
      );
      await page.setViewportSize({ width: 1280, height: 900 });

      // The row opens the edit screen: markups kept, history newest first.
      await row.getByRole("cell", { name: "Eve Reseller", exact: true }).click();
      await crumbs.getByText("Eve Reseller").waitFor();
      assert.equal(await page.getByLabel("mlbb_special").inputValue(), "7.5");
      assert.equal(await page.getByLabel("PUBG Mobile").inputValue(), "3");
      assert.equal(await page.getByLabel("Disable Discounts").isChecked(), true);
      const history = page.getByRole("region", { name: "Account Balance History" });
      await history.getByText("Starting Account Balance").waitFor();
      const types = await history.locator("tbody tr td:last-child").allInnerTexts();
      assert.deepEqual(types, ["Account Deduction", "Account Top up", "Starting Account Balance"]);
      const first = await history.locator("tbody tr").first().locator("td").allInnerTexts();
      assert.deepEqual(first.slice(1), ["$1,334.50", "$1,300.00", "Account Deduction"]);
      assert.match(first[0], /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} (am|pm)$/);

      // A top-up from the edit screen adds a history row; a markup edit saves.
      await moveBalance(page, "Top Up", "Eve Reseller", "0.5");
      await history.getByText("$1,300.50").waitFor();
      assert.equal(await history.locator("tbody tr").count(), 4);
      await page.getByLabel("mlbb", { exact: true }).fill("4.5");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Reseller saved.").waitFor();
      await shoot(page, "edit-reseller-1280");
      await page.setViewportSize({ width: 375, height: 800 });
      await shoot(page, "edit-reseller-375");
      await page.setViewportSize({ width: 1280, height: 900 });
      const saved = await page.request.get(`${server.url}/api/resellers?search=eve`);
      const [eve] = await saved.json();
      assert.deepEqual(eve.markup, { mlbb: 4.5, mlbb_global: 6, mlbb_special: 7.5, pubgm: 3 });
      assert.equal(eve.balance, 1300.5);

      // A new password: the form says what else it does before saving, and again once saved.
      await page.getByLabel("Password").fill("eve's second password");
      await page.getByRole("note").getByText(
        "Saving a new password signs the reseller out, revokes all its API keys and disables its webhook.",
      ).waitFor();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText(
        "Reseller saved. The new password signed the reseller out, revoked all its API keys and disabled its webhook.",
      ).waitFor();
      assert.equal(await page.getByRole("note").count(), 0, "the field is empty again");

      // Ten rows a page, newest first: eight more top-ups make twelve rows.
      for (let i = 1; i <= 8; i++) {
        const r = await page.request.post(`${server.url}/api/balance_topup/reseller/${eve._id}`, {
          data: { amount: i },
        });
        assert.equal(r.status(), 200);
      }
      await crumbs.getByRole("button", { name: "Resellers" }).click();
      await resellerRow(page, "Eve Reseller").getByRole("cell", {
        name: "Eve Reseller",
        exact: true,
      })
        .click();
      await history.getByText("$1,336.50").first().waitFor();
      assert.equal(await history.locator("tbody tr").count(), 10);
      assert.equal(
        await history.locator("tbody tr").first().locator("td").nth(2).innerText(),
        "$1,336.50",
      );
      await history.getByRole("button", { name: "2", exact: true }).click();
      assert.deepEqual(await history.locator("tbody tr td:last-child").allInnerTexts(), [
        "Account Top up",
        "Starting Account Balance",
      ]);

      // Delete asks first, then the row is gone.
      await crumbs.getByRole("button", { name: "Resellers" }).click();
      await resellerRow(page, "Eve Reseller").getByRole("button", { name: "Delete Eve Reseller" })
        .click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Delete reseller 'Eve Reseller'?").waitFor();
      await page.setViewportSize({ width: 375, height: 800 });
      await shoot(page, "resellers-375");
      await page.setViewportSize({ width: 1280, height: 900 });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await resellerRow(page, "Eve Reseller").waitFor({ state: "detached" });
      assert.equal(await resellerRow(page, "Demo Reseller").count(), 1);

      // Consumers: a row click does nothing; delete asks first.
      await page.getByRole("tab", { name: "Consumers" }).click();
      await page.getByRole("cell", { name: "ana@buyer.example" }).click();
      assert.equal(await page.getByRole("tab", { name: "Consumers", selected: true }).count(), 1);
      await shoot(page, "consumers-1280");
      await page.getByRole("button", { name: "Delete Ana Buyer" }).click();
      await page.getByRole("dialog").getByText("Delete consumer 'Ana Buyer'?").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText("No consumers found").waitFor();
      assert.equal(alerts.length, 1, alerts.join("\n"));

      // Each of those actions is in the superadmin's Audit view, by the demo admin.
      await page.getByRole("button", { name: "Audit" }).click();
      const audit = page.getByRole("region", { name: "Audit" });
      // Each action reads as words, its code under them; the filter takes either.
      for (
        const [action, words] of [
          ["reseller.create", "Reseller created"],
          ["reseller.top_up", "Balance topped up"],
          ["reseller.deduct", "Balance deducted"],
          ["reseller.update", "Reseller changed"],
          ["reseller.delete", "Reseller deleted"],
          ["consumer.delete", "Consumer deleted"],
        ]
      ) {
        await page.getByLabel("Action").fill(words);
        const row = audit.getByRole("row").filter({ hasText: action }).first();
        await row.waitFor();
        assert.match(await row.innerText(), /Demo Admin/, action);
        assert.equal(
          (await row.locator("td").nth(2).innerText()).replace(/\s+/g, " ").trim(),
          `${words} ${action}`,
        );
        // One field a line, never JSON; the target's type and id each whole on one line.
        assert.doesNotMatch(await row.locator("td").last().innerText(), /[{}[\]"]/, action);
        const target = await row.locator("td").nth(3).evaluate((cell) =>
          [...cell.childNodes].map((node) => {
            const range = document.createRange();
            range.selectNodeContents(node);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          })
        );
        assert.deepEqual(target, [1, 1], `${action}: target type and id whole`);
      }
      await page.getByLabel("Action").fill("reseller.update");
      await audit.getByRole("listitem").filter({ hasText: "markup › mlbb: 5 → 4.5" }).waitFor();
      // At 375 px each entry is a card; the remarks' long file name breaks inside it, no card
      // is wider than the screen.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByLabel("Action").fill("reseller.create");
      await audit.getByText(/contracts\/eve_reseller/).first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
      await shoot(page, "audit-375");
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
