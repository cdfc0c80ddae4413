// In the browser, /resellers/api renders the OpenAPI document with Scalar at 1280 px,
// every operation listed in its sidebar and shown from there, without a request leaving this site;
// "Try it" sends the reseller's key. Scalar renders it once, from the document, and logs no error.
// Screenshots at 375 and 1280 px go to SCREENS_DIR when set.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, openEveryApiOperation } from "../helpers/browser.ts";
import { signInDemoReseller } from "../helpers/sessions.ts";

const SCREENS = Deno.env.get("SCREENS_DIR");

Deno.test({
  name: "[e2e] the API reference renders every operation with Scalar, from this site only",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase("pglite");
    const server = await startTestServer(tdb);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const elsewhere: string[] = [];
      const errors: string[] = [];
      const consoleErrors: string[] = [];
      page.on("request", (r) => {
        const url = new URL(r.url());
        if (url.origin !== server.url && url.protocol !== "data:") elsewhere.push(r.url());
      });
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") consoleErrors.push(m.text());
      });
      await page.goto(`${server.url}/resellers/api`);
      await openEveryApiOperation(page);
      // Scalar's bundle mounts a reference of its own on an element with the id api-reference,
      // reading that element's HTML as the document ("Invalid YAML object"): only ours may mount.
      assert.equal(await page.locator("[data-v-app]").count(), 1, "one Scalar app on the page");
      if (SCREENS) {
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: `${SCREENS}/api-reference-${width}.png` });
        }
      }
      // Try it: the reseller's own key, typed into the page, calls the API from the browser.
      const session = await signInDemoReseller(server.url);
      const key = (await session.post("/api/reseller/api_keys", { name: "Reference" })).json.secret;
      await page.getByPlaceholder("Token").first().fill(key);
      const balance = page.locator("section", {
        has: page.getByRole("heading", { name: "Get your balance", exact: true }),
      }).last();
      await balance.getByRole("button", { name: /Test Request/ }).first().click();
      const answered = page.waitForResponse((r) => r.url().endsWith("/api/v1/balance"));
      await page.getByRole("dialog").getByRole("button", { name: /^Send/ }).first().click();
      const answer = await answered;
      assert.equal(answer.request().headers()["authorization"], `Bearer ${key}`);
      assert.deepEqual(await answer.json(), { balance: 1000 });
      await page.getByRole("dialog").getByText('"balance": 1000').waitFor();
      assert.deepEqual(elsewhere, [], "no request leaves the site");
      assert.deepEqual(errors, []);
      assert.deepEqual(consoleErrors, [], "nothing logged as an error");
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
