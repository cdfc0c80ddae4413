// Needs review in a real browser for a consumer's refund HitPay refused: a buyer pays for Mobile
// Legends diamonds, EliteDias refuses the top-up, HitPay refuses the automatic refund. The card
// shows HitPay's message and only Refund (the order already failed: nothing to deliver or send),
// whose dialog says HitPay is asked again; after it the order is refunded and the Orders list says
// so, with the refund in the order's details.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, signInDemoAdminInBrowser } from "../helpers/browser.ts";
import { simControl } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  paymentRequestOf,
  waitForStatus,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import {
  HITPAY_REFUND_ENDPOINT,
  REFUND_REFUSED_MESSAGE,
} from "../../src/integrations/hitpay/simulator.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { AdminOrdersPage, ReviewOrderDto } from "../../src/shared/order-types.ts";

Deno.test({
  name: "[e2e] a consumer refund HitPay refused waits in Needs review with only Refund, which " +
    "asks HitPay again",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const alerts: string[] = [];
      page.on("dialog", (dialog) => {
        alerts.push(dialog.message());
        dialog.accept();
      });
      await signInDemoAdminInBrowser(page, server.url);
      /** The admin's API, with the browser's session. */
      const adminGet = async (path: string) => {
        const r = await page.request.get(`${server.url}${path}`);
        assert.equal(r.status(), 200, await r.text());
        return await r.json();
      };
      const games = await adminGet("/api/admin/games") as GameDto[];
      const special = games.find((g) => g.supplierName === "mlbb")!.packages
        .find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const price = centsToDollars(
        computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
      );
      await simControl(server.url, "elitedias", "rejectOrders");
      await hitpaySim(server.url, "forceNext", ["error", 1, HITPAY_REFUND_ENDPOINT]);
      const buyer = consumerAt(server.url, "198.51.100.40");
      const placed = await buyer.post(
        "/api/payment/hitpay/mlbb",
        paymentBody(item.nameSupplier, price),
      );
      assert.equal(placed.status, 201, placed.text);
      const orderId = placed.json.orderID as string;
      await hitpaySim(server.url, "pay", [(await paymentRequestOf(server.url, orderId)).id]);

      let listed: ReviewOrderDto | undefined;
      for (let i = 0; i < 150 && !listed; i++) {
        if (i) await new Promise((ok) => setTimeout(ok, 200));
        listed = ((await adminGet("/api/orders/review")).orders as ReviewOrderDto[])
          .find((o) => o.id === orderId);
      }
      assert.ok(listed, "the refused refund reached Needs review");
      assert.equal(listed.status, "error");
      assert.ok(listed.reviewReason.includes(REFUND_REFUSED_MESSAGE), listed.reviewReason);
      assert.equal(listed.refund?.status, "refused");

      const menu = page.getByRole("navigation", { name: "Admin menu" });
      await menu.getByRole("button", { name: "Orders", exact: true }).click();
      const main = page.locator("main[data-view='orders']");
      await main.getByRole("tab", { name: "Needs review (1)", exact: true }).click();
      const card = main.locator(`tbody[data-order-id="${orderId}"]`);
      await card.waitFor();
      const text = await card.innerText();
      assert.ok(text.includes(REFUND_REFUSED_MESSAGE), `HitPay's message missing from:\n${text}`);
      assert.match(text, /Refund: \$[\d.]+ refused/);
      assert.deepEqual(await card.locator(".ao-actions button").allInnerTexts(), ["Refund"]);

      await card.getByRole("button", { name: "Refund" }).click();
      const dialog = page.locator("dialog.confirm-dialog");
      assert.match(await dialog.innerText(), /HitPay is asked again to refund the customer's \$/);
      await dialog.getByRole("button", { name: "Refund" }).click();
      await dialog.waitFor({ state: "detached" });
      await main.getByText("No orders need review.").waitFor();
      assert.equal(await waitForStatus(buyer, orderId, ["refunded"]), "refunded");
      const refunds = await hitpaySim(server.url, "listRefunds") as unknown[];
      assert.equal(refunds.length, 1, "one refund at HitPay");

      const search = await adminGet(`/api/orders?buyerType=consumer&search=${orderId}&page=1`);
      const [row] = (search as AdminOrdersPage).orders;
      assert.equal(row.status, "refunded");
      assert.equal(row.refund?.status, "succeeded");
      assert.ok(row.refund?.hitpayRefundId, "HitPay's refund id is kept");

      await main.getByRole("tab", { name: "Consumers", exact: true }).click();
      const line = main.locator(`tr[data-order-id="${orderId}"]`);
      await line.waitFor();
      assert.match(await line.locator(".rs-status").innerText(), /Refunded/);
      assert.deepEqual(alerts, []);
    } finally {
      await browser.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
