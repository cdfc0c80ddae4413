import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin, simControl } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  offerBankTransfer,
  paymentBody,
  paymentRequestOf,
  postWebhook,
  saveItemChanges,
  signedWebhook,
  waitForStatus,
} from "../helpers/consumer-payments.ts";
import { V2_CHARGE_EVENT } from "../fixtures/hitpay/webhook-v2.ts";
import { HITPAY_SIMULATOR_CREDENTIALS } from "../../src/config.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import { signHitPayV2 } from "../../src/integrations/hitpay/webhook.ts";
import { HITPAY_MINIMUM_REFUSAL } from "../../src/domain/payments/consumer-checkout.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[consumer payments] server prices, verified webhooks once, forward-only states, delivery",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const orders: Record<string, string> = {};
    let priceCents = 0;
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const mlbb = games.find((g) => g.supplierName === "mlbb")!;
      const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      priceCents = computeConsumerPrice(item, { markupPercent: special.markupConsumer });
      const price = centsToDollars(priceCents);
      const buyer = consumerAt(server.url, "198.51.100.1");
      const body = paymentBody(item.nameSupplier, price);

      await t.step("a tampered amount is refused with the server's price", async () => {
        const r = await buyer.post("/api/payment/hitpay/mlbb", { ...body, amount: 0.01 });
        assert.equal(r.status, 409, r.text);
        assert.match(r.json.error, /price of this item is now \$/);
        assert.equal(r.json.price, price);
      });

      await t.step("a tampered package is refused: the server decides it", async () => {
        const r = await buyer.post("/api/payment/hitpay/mlbb", { ...body, package: "mlbb" });
        assert.equal(r.status, 409, r.text);
        assert.match(r.json.error, /different package/);
      });

      await t.step("a tampered cost changes nothing HitPay is asked to charge", async () => {
        const r = await buyer.post("/api/payment/hitpay/mlbb", { ...body, cost: 0.0001 });
        assert.equal(r.status, 201, r.text);
        orders.cheapCost = r.json.orderID;
        const request = await paymentRequestOf(server.url, r.json.orderID);
        assert.equal(request.amount, price.toFixed(2));
      });

      await t.step("a payment answers the order number and HitPay's checkout page", async () => {
        const r = await buyer.post("/api/payment/hitpay/mlbb", body);
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(Object.keys(r.json).sort(), ["orderID", "paymentUrl"]);
        assert.match(r.json.orderID, /^C[0-9A-Z]{12,}$/);
        const request = await paymentRequestOf(server.url, r.json.orderID);
        assert.ok(r.json.paymentUrl.includes(request.id), r.json.paymentUrl);
        orders.main = r.json.orderID;
        assert.equal(
          await waitForStatus(buyer, orders.main, ["pending-customer-payment"]),
          "pending-customer-payment",
        );
      });

      const fields = async (overrides: Record<string, string> = {}) => ({
        payment_id: `pay-${orders.main}`,
        payment_request_id: (await paymentRequestOf(server.url, orders.main)).id,
        reference_number: orders.main,
        phone: "",
        amount: price.toFixed(2),
        currency: "SGD",
        status: "completed",
        ...overrides,
      });

      await t.step("a webhook with one flipped byte gets 401 and changes nothing", async () => {
        const good = signedWebhook(await fields());
        const at = good.indexOf("amount=") + "amount=".length;
        const flipped = good.slice(0, at) + String.fromCharCode(good.charCodeAt(at) ^ 1) +
          good.slice(at + 1);
        const r = await postWebhook(server.url, flipped);
        assert.equal(r.status, 401);
        assert.ok(r.json.error);
        assert.equal((await postWebhook(server.url, "garbage")).status, 401);
        assert.equal(
          (await buyer.get(`/api/order/${orders.main}/status`)).json.status,
          "pending-customer-payment",
        );
      });

      await t.step("an amount or currency mismatch is refused and changes nothing", async () => {
        const more = centsToDollars(priceCents + 1).toFixed(2);
        const amount = await postWebhook(
          server.url,
          signedWebhook(await fields({ payment_id: "pay-other-amount", amount: more })),
        );
        assert.equal(amount.status, 409);
        assert.match(amount.json.error, /amount/);
        const currency = await postWebhook(
          server.url,
          signedWebhook(await fields({ payment_id: "pay-other-currency", currency: "USD" })),
        );
        assert.equal(currency.status, 409);
        assert.match(currency.json.error, /currency/);
        const otherRequest = await postWebhook(
          server.url,
          signedWebhook(await fields({ payment_id: "pay-x", payment_request_id: "forged-id" })),
        );
        assert.equal(otherRequest.status, 409);
        assert.equal(
          (await buyer.get(`/api/order/${orders.main}/status`)).json.status,
          "pending-customer-payment",
        );
      });

      await t.step(
        "a signed payment of the business that is no order of ours is answered 200, counted apart",
        async () => {
          // HitPay sends the endpoint every payment of the business (a payment link, an invoice).
          const invoice = signedWebhook({
            payment_id: "pay-invoice-1",
            payment_request_id: "invoice-request-1",
            reference_number: "INV-2041",
            phone: "",
            amount: "120.00",
            currency: "SGD",
            status: "completed",
          });
          const first = await postWebhook(server.url, invoice);
          assert.equal(first.status, 200, JSON.stringify(first.json));
          assert.deepEqual(first.json, { received: true, ignored: "not an order of this shop" });
          const again = await postWebhook(server.url, invoice);
          assert.deepEqual([again.status, again.json.duplicate], [200, true]);
          const metrics = await (await fetch(new URL("/metrics", server.url))).text();
          assert.match(metrics, /topup_consumer_payments_total\{[^}]*outcome="foreign"[^}]*\} 1/);
        },
      );

      await t.step(
        "the same valid webhook 100 times makes one transition and one supplier order",
        async () => {
          const webhook = signedWebhook(await fields());
          const answers = [];
          for (let i = 0; i < 40; i++) answers.push(await postWebhook(server.url, webhook));
          answers.push(
            ...await Promise.all(
              Array.from({ length: 60 }, () => postWebhook(server.url, webhook)),
            ),
          );
          assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers.slice(0, 3)));
          assert.equal(answers.filter((a) => a.json.duplicate === false).length, 1);
          assert.equal(
            await waitForStatus(buyer, orders.main, ["successful", "error"]),
            "successful",
          );
          const placed = (await simControl(server.url, "elitedias", "listOrders") as {
            reference: string;
          }[]).filter((o) => o.reference === orders.main);
          assert.equal(placed.length, 1);
        },
      );

      await t.step("a signed v2 event the shop does not handle is answered 200, once", async () => {
        const signed = (salt: string) => ({
          ...V2_CHARGE_EVENT.headers,
          "Hitpay-Signature": signHitPayV2(V2_CHARGE_EVENT.body, salt),
        });
        const ours = signed(HITPAY_SIMULATOR_CREDENTIALS.salt);
        const first = await postWebhook(server.url, V2_CHARGE_EVENT.body, ours);
        assert.equal(first.status, 200, JSON.stringify(first.json));
        assert.deepEqual(first.json, { received: true, duplicate: false });
        const again = await postWebhook(server.url, V2_CHARGE_EVENT.body, ours);
        assert.deepEqual([again.status, again.json.duplicate], [200, true]);
        const forged = await postWebhook(server.url, V2_CHARGE_EVENT.body, signed("other_salt"));
        assert.equal(forged.status, 401);
      });

      await t.step("a late failed webhook never undoes a payment", async () => {
        const r = await postWebhook(
          server.url,
          signedWebhook(await fields({ status: "failed" })),
        );
        assert.equal(r.status, 200);
        assert.equal(
          (await buyer.get(`/api/order/${orders.main}/status`)).json.status,
          "successful",
        );
      });

      await t.step("one paid and one delivered receipt, however many webhooks", async () => {
        const receipts = async () =>
          ((await admin.get("/api/sent-emails")).json.emails as { subject: string; to: string }[])
            .filter((e) => e.subject.includes(orders.main));
        for (let i = 0; i < 100 && (await receipts()).length < 2; i++) {
          await new Promise((ok) => setTimeout(ok, 100));
        }
        assert.deepEqual((await receipts()).map((e) => [e.to, e.subject]).sort(), [
          ["ana@example.com", `Order ${orders.main} delivered`],
          ["ana@example.com", `Payment received for order ${orders.main}`],
        ]);
      });

      await t.step("the status call reveals only the status; unknown orders are 404", async () => {
        const r = await consumerAt(server.url, "198.51.100.9").get(
          `/api/order/${orders.main}/status`,
        );
        assert.deepEqual(r.json, { status: "successful" });
        assert.equal((await buyer.get("/api/order/CNOSUCHORDER123/status")).status, 404);
      });

      await t.step(
        "a supplier failure after payment is refunded through HitPay, once",
        async () => {
          await simControl(server.url, "elitedias", "rejectOrders");
          const r = await buyer.post("/api/payment/hitpay/mlbb", body);
          assert.equal(r.status, 201, r.text);
          orders.failed = r.json.orderID;
          const request = await paymentRequestOf(server.url, orders.failed);
          await hitpaySim(server.url, "pay", [request.id]);
          await hitpaySim(server.url, "awaitWebhooks");
          assert.equal(
            await waitForStatus(buyer, orders.failed, ["successful", "refunded"]),
            "refunded",
          );
          await simControl(server.url, "elitedias", "acceptOrders");
          const paid = (await hitpaySim(server.url, "listRequests") as {
            id: string;
            payments: { id: string; status: string }[];
          }[]).find((q) => q.id === request.id)!.payments;
          assert.deepEqual(paid.map((p) => p.status), ["refunded"]);
          const refunds = await hitpaySim(server.url, "listRefunds") as {
            payment_id: string;
            amount_refunded: number;
          }[];
          assert.deepEqual(refunds.map((f) => [f.payment_id, f.amount_refunded]), [
            [paid[0].id, price],
          ]);
          const mails = async () =>
            ((await admin.get("/api/sent-emails")).json.emails as { subject: string }[])
              .map((e) => e.subject).filter((s) => s === `Refund for order ${orders.failed}`);
          for (let i = 0; i < 100 && (await mails()).length < 1; i++) {
            await new Promise((ok) => setTimeout(ok, 100));
          }
          assert.equal((await mails()).length, 1, "the buyer is told once");
        },
      );

      await t.step("HitPay failing gives the spec's payment error and a 502", async () => {
        await hitpaySim(server.url, "forceNext", ["error"]);
        const r = await buyer.post("/api/payment/hitpay/mlbb", body);
        assert.equal(r.status, 502);
        assert.equal(r.json.error, "Failed to initiate payment, please try again.");
      });

      await t.step("an item hidden for consumers is not sold to them", async () => {
        const hidden = special.gameItems.find((i) => i.nameSupplier !== item.nameSupplier)!;
        await saveItemChanges(admin, mlbb, "mlbb_special", hidden.nameSupplier, {
          isHiddenConsumer: true,
        });
        const hiddenPrice = centsToDollars(
          computeConsumerPrice(hidden, { markupPercent: special.markupConsumer }),
        );
        const r = await buyer.post(
          "/api/payment/hitpay/mlbb",
          paymentBody(hidden.nameSupplier, hiddenPrice),
        );
        assert.equal(r.status, 404, r.text);
        assert.equal(r.json.error, "Item not found");
      });

      await t.step(
        "an item under HitPay's $0.30 is refused before any order or request; a transfer takes it",
        async () => {
          const mlbbSpecial = async () =>
            ((await admin.get("/api/admin/games")).json as GameDto[])
              .find((g) => g.supplierName === "mlbb")!.packages
              .find((p) => p.name === "mlbb_special")!;
          const cheap = (await mlbbSpecial()).gameItems
            .find((i) => i.nameSupplier !== item.nameSupplier && !i.isHiddenConsumer)!;
          await simControl(server.url, "elitedias", "setCost", [
            "mlbb_special",
            cheap.nameSupplier,
            "0.20",
          ]);
          const synced = await admin.post("/api/sync_prices/mlbb", {});
          assert.equal(synced.status, 200, synced.text);
          const resynced = await mlbbSpecial();
          const cheapCents = computeConsumerPrice(
            resynced.gameItems.find((i) => i.nameSupplier === cheap.nameSupplier)!,
            { markupPercent: resynced.markupConsumer },
          );
          assert.ok(cheapCents < 30, `priced ${cheapCents} cents`);
          const cheapBody = paymentBody(cheap.nameSupplier, centsToDollars(cheapCents));
          const requests = (await hitpaySim(server.url, "listRequests")).length;
          const other = consumerAt(server.url, "198.51.100.30");
          const r = await other.post("/api/payment/hitpay/mlbb", cheapBody);
          assert.equal(r.status, 400, r.text);
          assert.equal(r.json.error, HITPAY_MINIMUM_REFUSAL);
          assert.equal((await hitpaySim(server.url, "listRequests")).length, requests);
          await offerBankTransfer(admin);
          const transfer = await other.post("/api/payment/manual/mlbb", cheapBody);
          assert.equal(transfer.status, 201, transfer.text);
        },
      );
    } finally {
      await server.stop();
    }
    try {
      await withHandle(tdb, async (db) => {
        const failed = await db.selectFrom("orders").select(["status", "last_error"])
          .where("id", "=", orders.failed).executeTakeFirstOrThrow();
        assert.equal(failed.status, "refunded");
        assert.match(failed.last_error ?? "", /Out of stock/, "why it failed stays shown");
        const events = await db.selectFrom("payment_events").select(["event_key", "outcome"])
          .where("order_id", "=", orders.main).orderBy("id").execute();
        assert.deepEqual(events.map((e) => e.outcome), [
          "refused: amount does not match the order",
          "refused: currency does not match the order",
          "refused: payment request does not match the order",
          "paid",
          "payment failed; order stays successful",
        ]);
        const ignored = await db.selectFrom("payment_events").select(["order_id", "outcome"])
          .where("outcome", "like", "ignored:%").orderBy("id").execute();
        assert.deepEqual(ignored, [
          { order_id: null, outcome: "ignored: not an order of this shop" },
          { order_id: null, outcome: "ignored: charge.created events are not handled" },
        ]);
        const charged = await db.selectFrom("orders").select(["amount_cents", "status"])
          .where("buyer_type", "=", "consumer").where("payment_provider", "=", "hitpay").execute();
        assert.ok(charged.every((o) => Number(o.amount_cents) === priceCents));
        const consumers = await db.selectFrom("consumers").select(["name", "email"]).execute();
        assert.deepEqual(consumers, [{ name: "Ana Buyer", email: "ana@example.com" }]);
        const unreachable = await db.selectFrom("orders").select(["status", "last_error"])
          .where("buyer_type", "=", "consumer").where("status", "=", "cancelled").execute();
        assert.equal(unreachable.length, 1, "the order HitPay never took is cancelled");
      });
    } finally {
      await tdb.drop();
    }
  },
});
