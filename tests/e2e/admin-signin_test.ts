import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  gotoHydrated,
  launchBrowser,
  pageOverflow,
  saveScreenshot,
  waitForIslands,
} from "../helpers/browser.ts";
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
      // Shown in groups of four, to be read off and typed; selected and copied, it is one word.
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        const groups = await page.getByLabel("Secret key").evaluate((el) => {
          const boxes = [...el.children].map((child) => child.getBoundingClientRect());
          const gaps = boxes.slice(1).map((box, i) =>
            box.top === boxes[i].top ? box.left - boxes[i].right : null
          );
          const range = document.createRange();
          range.selectNodeContents(el);
          getSelection()!.removeAllRanges();
          getSelection()!.addRange(range);
          return {
            texts: [...el.children].map((child) => child.textContent),
            gaps,
            selected: getSelection()!.toString(),
          };
        });
        assert.deepEqual(groups.texts, secret.match(/.{4}/g), `${width} px`);
        assert.ok(
          groups.gaps.every((gap) => gap === null || gap >= 4),
          `a visible gap between groups: ${groups.gaps}`,
        );
        assert.equal(groups.selected, secret, "a copy holds the secret alone");
        assert.equal(await pageOverflow(page), 0);
        await saveScreenshot(page, `two-factor-setup-${width}`);
      }

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
