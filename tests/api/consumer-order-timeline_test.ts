// What anyone holding a consumer order number can learn beyond its status: the order's steps and
// their times (never the player or the buyer), and "I have paid", which asks HitPay at once but no
// more often than once per order every 10 seconds, saying when to try again.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  paymentRequestOf,
  SPECIAL_ACCOUNT,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { ConsumerOrderTimeline } from "../../src/shared/consumer-order-timeline.ts";
import { AWAITING_PAYMENT } from "../../src/shared/order-lifecycle.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Every field name a timeline answer may carry: steps and times, nothing about people. */
const TIMELINE_FIELDS = [
  "status",
  "entries",
  "canCheckPayment",
  "kind",
  "at",
  "since",
  "usual",
  "minutes",
  "measured",
  "amount",
];

/** Every key of `value`, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  }
  return [];
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

Deno.test({
  name: "[timeline api] the order number shows steps and times only; I have paid asks HitPay, " +
    "at most once per order every 10 s",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const mlbb = games.find((g) => g.supplierName === "mlbb")!;
      const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const price = centsToDollars(
        computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
      );
      const buyer = consumerAt(server.url, "198.51.100.7");
      // Anyone else holding the number: another address, no cookie.
      const stranger = consumerAt(server.url, "203.0.113.9");
      const placed = await buyer.post(
        "/api/payment/hitpay/mlbb",
        paymentBody(item.nameSupplier, price),
      );
      assert.equal(placed.status, 201, placed.text);
      const orderId: string = placed.json.orderID;

      await t.step("awaiting payment: placed and waiting, with no player or buyer", async () => {
        const r = await stranger.get(`/api/order/${orderId}/timeline`);
        assert.equal(r.status, 200, r.text);
        const timeline = r.json as ConsumerOrderTimeline;
        assert.equal(timeline.status, AWAITING_PAYMENT);
        assert.deepEqual(timeline.entries.map((e) => e.kind), ["placed", "awaiting-payment"]);
        assert.equal(timeline.canCheckPayment, true);
        const unexpected = keysOf(r.json).filter((key) => !TIMELINE_FIELDS.includes(key));
        assert.deepEqual(unexpected, [], "only steps and times");
        for (
          const secret of [
            SPECIAL_ACCOUNT.userid,
            "Ana",
            "Buyer",
            "ana@example.com",
            "8123",
          ]
        ) {
          assert.ok(!r.text.includes(secret), `${secret} is not in ${r.text}`);
        }
        assert.equal((await stranger.get("/api/order/CNOSUCHORDER123/timeline")).status, 404);
      });

      let retryAfter = 0;
      await t.step(
        "I have paid before paying: still awaiting, then limited with the wait",
        async () => {
          const first = await stranger.post(`/api/order/${orderId}/check-payment`);
          assert.equal(first.status, 200, first.text);
          assert.deepEqual(first.json, { status: AWAITING_PAYMENT });
          const again = await stranger.post(`/api/order/${orderId}/check-payment`);
          assert.equal(again.status, 429, again.text);
          retryAfter = Number(again.headers.get("retry-after"));
          assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);
          assert.equal(
            again.json.error,
            `We asked HitPay about this order a moment ago. Please try again in ${retryAfter} ` +
              `second${retryAfter === 1 ? "" : "s"}.`,
          );
        },
      );

      await t.step("paid while the webhook is late: I have paid finds it at HitPay", async () => {
        await hitpaySim(server.url, "holdWebhooks", [true]);
        try {
          await hitpaySim(server.url, "pay", [(await paymentRequestOf(server.url, orderId)).id]);
          await sleep(retryAfter * 1000);
          const r = await stranger.post(`/api/order/${orderId}/check-payment`);
          assert.equal(r.status, 200, r.text);
          assert.notEqual(r.json.status, AWAITING_PAYMENT, "paid, by HitPay's word");
          const timeline = (await stranger.get(`/api/order/${orderId}/timeline`))
            .json as ConsumerOrderTimeline;
          const paid = timeline.entries.find((e) => e.kind === "paid");
          assert.ok(paid && paid.kind === "paid" && paid.at, JSON.stringify(timeline));
          assert.equal(timeline.canCheckPayment, false);
          // Paid already: answered with the status, HitPay not asked, never limited.
          const after = await stranger.post(`/api/order/${orderId}/check-payment`);
          assert.equal(after.status, 200, after.text);
        } finally {
          await hitpaySim(server.url, "holdWebhooks", [false]);
        }
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
