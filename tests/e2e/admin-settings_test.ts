import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { gotoHydrated, launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";

Deno.test({
  name:
    "[e2e] Settings: mark-up and bank account saved, a restricted user added, refused twice and deleted; " +
    "Admins: a Staff created and deleted, superadmin rank read-only, one's own password changed " +
    "with the current one; each found in Audit",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const alerts: string[] = [];
      page.on("dialog", (d) => {
        alerts.push(d.message());
        d.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);
      await page.getByRole("button", { name: "Settings" }).click();

      const rateBox = page.getByRole("status", { name: "Exchange Rate" });
      await rateBox.getByText("Rate shown to resellers").waitFor();
      const markUp = page.getByLabel("Exchange Rate Mark Up (SGD cents per 1 USD)");
      const markUpForm = page.locator("form", { has: markUp });
      await markUp.fill("2.5");
      await markUpForm.getByRole("button", { name: "Save", exact: true }).click();
      await markUpForm.getByText("Saved").waitFor();
      await rateBox.getByText("2.5 SGD cents per 1 USD").waitFor();

      // The bank account manual transfers go to, kept across a reload of the screen.
      const bank = page.getByRole("form", { name: "Bank Transfer" });
      await bank.getByLabel("Bank Name").fill("DBS Bank");
      await bank.getByLabel("Account Name").fill("TopUp Pte Ltd");
      await bank.getByLabel("Account Number").fill("072-123456-7");
      await bank.getByRole("button", { name: "Save", exact: true }).click();
      await bank.getByText("Saved").waitFor();
      // While the saved account is on its way the form takes nothing: typing would be
      // overwritten when it arrives, and a Save would write blanks over the saved account.
      let release!: () => void;
      const held = new Promise<void>((ok) => release = ok);
      await page.route("**/api/settings/bank-transfer", async (route) => {
        if (route.request().method() === "GET") await held;
        await route.continue();
      });
      await gotoHydrated(page, `${server.url}/admin/home`);
      await page.getByRole("button", { name: "Settings" }).click();
      assert.equal(await bank.getByLabel("Account Number").isDisabled(), true);
      assert.equal(
        await bank.getByRole("button", { name: "Save", exact: true }).isDisabled(),
        true,
      );
      release();
      await page.waitForFunction(() =>
        (document.getElementById("ap-bank-accountNumber") as HTMLInputElement | null)?.value ===
          "072-123456-7"
      );
      assert.equal(await bank.getByLabel("Account Number").isEnabled(), true);
      await page.unroute("**/api/settings/bank-transfer");

      await page.getByRole("button", { name: "Add New" }).click();
      await page.getByLabel("User ID").fill("12345678");
      await page.getByLabel("Server ID").fill("1234");
      const form = page.getByRole("form", { name: "Add restricted user" });
      await form.getByRole("button", { name: "Save" }).click();
      const row = page.getByRole("row").filter({ hasText: "12345678" });
      await row.waitFor();
      assert.match(
        await row.innerText(),
        /12345678\s+1234\s+\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} [ap]m\s+Demo Admin/,
      );
      const added = (await row.getByRole("cell").nth(2).innerText()).trim();

      await page.getByRole("button", { name: "Add New" }).click();
      await page.getByLabel("User ID").fill("12345678");
      await page.getByLabel("Server ID").fill("1234");
      await form.getByRole("button", { name: "Save" }).click();
      const refusal = page.getByRole("alert").filter({
        hasText: `This user was already added on ${added} by Demo Admin`,
      });
      await refusal.waitFor();
      assert.equal(await page.getByRole("row").filter({ hasText: "12345678" }).count(), 1);

      // Deleted with the form still open: the refusal is no longer true and goes with the row.
      await row.getByRole("button", { name: "Delete restricted user 12345678 (1234)" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Delete restricted user: 12345678 (1234)?").waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await row.waitFor({ state: "detached" });
      await refusal.waitFor({ state: "detached" });
      await page.getByRole("cell", { name: "No restricted users" }).waitFor();
      await page.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("button", { name: "Audit" }).click();
      const audit = page.getByRole("region", { name: "Audit" });
      const deleted = audit.getByRole("row").filter({ hasText: "restricted_mlbb_user.delete" });
      await deleted.waitFor();
      assert.match(await deleted.innerText(), /Demo Admin/);
      // One readable line per field of what was deleted.
      assert.match(await deleted.innerText(), /userID: 12345678/);
      assert.match(await deleted.innerText(), /serverID: 1234/);
      await page.getByLabel("Action").fill("settings");
      await audit.getByRole("row").filter({ hasText: "restricted_mlbb_user" })
        .first().waitFor({ state: "detached" });
      const settings = audit.getByRole("row").filter({ hasText: "settings.update" })
        .filter({ hasText: "fxRateMarkUp" });
      assert.match(await settings.innerText(), /fxRateMarkUp: \d+(\.\d+)? → 2\.5/);

      await page.getByRole("button", { name: "Users" }).click();
      await page.getByRole("tab", { name: "Admins" }).click();
      await page.getByRole("button", { name: "Create New Admin" }).click();
      await page.getByLabel("Name").fill("Olive Ops");
      await page.getByLabel("Rank").selectOption("Staff");
      await page.getByLabel("Email").fill("olive@ops.test");
      await page.getByLabel("Password").fill("olive's long password");
      await page.getByLabel("Remarks").fill("night shift");
      await page.getByRole("button", { name: "Create Admin" }).click();
      const olive = page.getByRole("row").filter({ hasText: "olive@ops.test" });
      assert.match(await olive.innerText(), /Olive Ops\s+olive@ops\.test\s+Staff/);

      await page.getByPlaceholder("Search admin...").fill("SUPER");
      await olive.waitFor({ state: "detached" });
      await page.getByRole("cell", { name: "Demo Admin" }).click();
      const rank = page.getByLabel("Rank");
      assert.equal(await rank.inputValue(), "superadmin");
      assert.equal(await rank.getAttribute("readonly"), "", "superadmin rank is read-only");
      // Their own password needs the current one: a wrong one is refused, the right one saves.
      await page.getByLabel("Password", { exact: true }).fill("demo admin's new password");
      await page.getByLabel("Current Password").fill("not my password");
      await page.getByRole("button", { name: "Save" }).click();
      for (let i = 0; i < 100 && alerts.length === 0; i++) await page.waitForTimeout(50);
      assert.deepEqual(alerts.splice(0), [
        "Failure edit admin, please try again. Error: Please check your current password.",
      ]);
      await page.getByLabel("Current Password").fill(DEMO_ADMIN.password);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByPlaceholder("Search admin...").fill("");

      await olive.getByRole("button", { name: "Delete admin Olive Ops" }).click();
      await dialog.getByText("Delete admin 'Olive Ops'?").waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await olive.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Audit" }).click();
      await page.getByLabel("Action").fill("admin.");
      const adminRows = audit.getByRole("row").filter({ hasText: "Olive Ops" });
      await adminRows.filter({ hasText: "admin.delete" }).waitFor();
      await adminRows.filter({ hasText: "admin.create" }).waitFor();
      assert.doesNotMatch(await audit.innerText(), /olive's long password/);
      const own = audit.getByRole("row").filter({ hasText: "admin.update" })
        .filter({ hasText: "passwordChanged: true" });
      assert.match(await own.innerText(), /Demo Admin/);
      assert.doesNotMatch(await audit.innerText(), /new password|not my password/);
      assert.deepEqual(alerts, []);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
