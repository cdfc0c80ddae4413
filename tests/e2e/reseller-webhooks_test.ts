import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoResellerInBrowser } from "../helpers/browser.ts";
import { signInDemoReseller } from "../helpers/sessions.ts";
import { pubgOrder } from "../helpers/orders.ts";
import {
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from "../../src/shared/webhook-signature.ts";

const SCREENS = Deno.env.get("SCREENS_DIR");

Deno.test({
  name: "[e2e] a reseller sets a webhook URL, sees its delivery and resends it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const received: { header: string | null; raw: string }[] = [];
    const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      received.push({ header: req.headers.get(WEBHOOK_SIGNATURE_HEADER), raw: await req.text() });
      return new Response("thanks");
    });
    const hookUrl = `http://127.0.0.1:${receiver.addr.port}/hooks/topup`;
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { WEBHOOK_RETRY_DELAYS: "1,1,1" });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("dialog", (dialog) => {
        throw new Error(`unexpected alert: ${dialog.message()}`);
      });
      await signInDemoResellerInBrowser(page, server.url);
      await page.getByRole("button", { name: "Account" }).click();

      const panel = page.getByRole("region", { name: "Order Webhooks" });
      await panel.getByLabel("Callback URL").fill(hookUrl);
      await panel.getByRole("button", { name: "Set URL" }).click();
      const secret = (await panel.locator(".wh-secret").innerText()).trim();
      assert.match(secret, /^whsec_/);
      await panel.getByText("No deliveries yet.").waitFor();

      // An order placed over HTTP by the same reseller ends successful and is delivered.
      const api = await signInDemoReseller(server.url);
      const { body } = await pubgOrder(api);
      const placed = await api.post("/api/reseller/place_order", body, {
        "idempotency-key": "e2e-webhook",
      });
      assert.equal(placed.status, 201, placed.text);
      const orderId = placed.json.order.id as string;
      for (let i = 0; i < 200 && received.length === 0; i++) {
        await api.post(`/api/reseller/order/${orderId}/refresh_status`, { denom: body.denom });
        await new Promise((ok) => setTimeout(ok, 150));
      }
      assert.equal(received.length, 1, "one delivery");
      assert.ok(await verifyWebhookSignature(secret, received[0].header, received[0].raw, 300));

      await panel.getByRole("button", { name: "Refresh" }).click();
      const row = panel.locator("tbody tr").first();
      await row.getByText("200", { exact: true }).waitFor();
      assert.equal(await row.getByText("thanks").count(), 0, "the receiver's words are not shown");
      assert.match(await row.innerText(), new RegExp(`order\\.successful\\s+${orderId}`));
      if (SCREENS) {
        await page.screenshot({ path: `${SCREENS}/account-webhooks-1280.png`, fullPage: true });
      }

      await row.getByRole("button", { name: "Resend" }).click();
      await panel.getByText("Queued again; refresh to see its answer.").waitFor();
      for (let i = 0; i < 100 && received.length < 2; i++) {
        await new Promise((ok) => setTimeout(ok, 100));
      }
      assert.equal(received.length, 2, "the resend arrived");
      assert.equal(JSON.parse(received[1].raw).id, JSON.parse(received[0].raw).id, "same event id");
      await panel.getByRole("button", { name: "Refresh" }).click();
      await panel.locator("tbody tr").nth(1).waitFor();
      assert.deepEqual(
        await panel.locator("tbody tr td:nth-child(4)").allInnerTexts(),
        ["2", "1"],
        "the resend is the event's second attempt, listed first",
      );
      if (SCREENS) {
        await page.setViewportSize({ width: 375, height: 800 });
        await page.screenshot({ path: `${SCREENS}/account-webhooks-375.png`, fullPage: true });
      }
    } finally {
      await browser.close();
      await server.stop();
      await receiver.shutdown();
      await tdb.drop();
    }
  },
});
