import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { gotoHydrated, launchBrowser, waitForIslands } from "../helpers/browser.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";

Deno.test({
  name: "[e2e] the demo admin signs in through QR enrolment and a code and sees Welcome",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await gotoHydrated(page, `${server.url}/admin`);

      await page.getByRole("button", { name: "Sign In" }).click();
      await page.getByText("Please fill in email and password").waitFor();

      await page.getByLabel("Email").fill("Admin@Demo.Test");
      await page.getByLabel("Password").fill("wrong password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.getByText("Please check your email or password.").waitFor();

      await page.getByLabel("Password").fill(DEMO_ADMIN.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.waitForURL("**/2fa");
      await waitForIslands(page);
      await page.getByAltText("Two-factor QR code").waitFor();
      assert.match(await page.locator("body").innerText(), /screenshot/i);
      const secret = (await page.getByLabel("Secret key").innerText()).trim();
      assert.match(secret, /^[A-Z2-7]{32}$/);

      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("button", { name: "Back to QR Code" }).click();
      await page.getByAltText("Two-factor QR code").waitFor();
      await page.getByRole("button", { name: "Done" }).click();

      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("Please enter the verification code as shown in your Authenticator App")
        .waitFor();
      await page.getByLabel("Verification code").fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByText("Verification failed, Please try again.").waitFor();

      await page.getByLabel("Verification code").fill(generateTotpCode(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await page.waitForURL("**/admin/home");
      await waitForIslands(page);
      await page.getByText(`Welcome ${DEMO_ADMIN.name}`).waitFor();

      await page.getByRole("button", { name: "Settings" }).click();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/admin$/);
      const after = await page.request.get(`${server.url}/api/current_user`);
      assert.equal(after.status(), 401);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
