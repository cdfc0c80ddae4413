import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import { setPaymentReference } from "../../src/db/repositories/orders.ts";
import {
  HITPAY,
  receiveHitPayWebhook,
  reconcileHitPayPayment,
} from "../../src/domain/payments/consumer-payments.ts";
import {
  AWAITING_PAYMENT,
  PAYMENT_FAILED,
  PAYMENT_RECEIVED,
} from "../../src/domain/payments/consumer-states.ts";
import { signHitPayV1 } from "../../src/integrations/hitpay/webhook.ts";
import { createHitPayClient, type HitPayClient } from "../../src/integrations/hitpay/client.ts";
import {
  createHitPaySimulator,
  type HitPaySimulator,
} from "../../src/integrations/hitpay/simulator.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const API_KEY = "reconcile_api_key";
const SALT = "reconcile_salt";
const SITE = "https://shop.example.com";
const PRICE_CENTS = 1299;

interface World {
  db: Db;
  sim: HitPaySimulator;
  hitpay: HitPayClient;
  /** What the shop's webhook endpoint made of each webhook the simulator delivered. */
  webhookResults: string[];
  /** A consumer order awaiting payment, with a HitPay request for `requestCents` stored on it. */
  awaitingOrder(id: string, requestCents?: number): Promise<{ order: OrderRow; requestId: string }>;
  /** The order's stored payment events, oldest first. */
  eventsOf(orderId: string): Promise<{ event_key: string; outcome: string | null }[]>;
  statusOf(orderId: string): Promise<string>;
}

/** A database, the HitPay simulator, and a shop endpoint passing webhooks to the domain. */
async function withWorld(run: (w: World) => Promise<void>): Promise<void> {
  const tdb = await createTestDatabase();
  const sim = createHitPaySimulator({ apiKey: API_KEY, salt: SALT });
  const hitpayServer = startSimulatorServer(sim.handler);
  const webhookResults: string[] = [];
  try {
    await withHandle(tdb, async (db) => {
      const shop = startSimulatorServer(async (request) => {
        const result = await receiveHitPayWebhook(db, {
          rawBody: await request.text(),
          headers: request.headers,
          salt: SALT,
        });
        webhookResults.push(result.kind);
        return Response.json(result);
      });
      const hitpay = createHitPayClient({
        baseUrl: `${hitpayServer.url}/v1`,
        apiKey: API_KEY,
        timeoutMs: 2_000,
      });
      try {
        await run({
          db,
          sim,
          hitpay,
          webhookResults,
          async awaitingOrder(id, requestCents = PRICE_CENTS) {
            await db.insertInto("orders").values({
              id,
              buyer_type: "consumer",
              status: AWAITING_PAYMENT,
              game: "Mobile Legends",
              item: "86 Diamonds",
              denom: "86",
              user_id: "22222222",
              amount_cents: PRICE_CENTS,
              cost: "1",
              supplier: "elephant",
              payment_provider: HITPAY,
            }).execute();
            const request = await hitpay.createPaymentRequest({
              amountCents: requestCents,
              currency: "SGD",
              referenceNumber: id,
              redirectUrl: `${SITE}/payment/success`,
              webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
              paymentMethods: ["paynow_online"],
            });
            assert.ok(await setPaymentReference(db, id, HITPAY, request.id));
            const order = await db.selectFrom("orders").selectAll().where("id", "=", id)
              .executeTakeFirstOrThrow();
            return { order, requestId: request.id };
          },
          eventsOf: (orderId) =>
            db.selectFrom("payment_events").select(["event_key", "outcome"])
              .where("order_id", "=", orderId).orderBy("id").execute(),
          async statusOf(orderId) {
            const row = await db.selectFrom("orders").select("status").where("id", "=", orderId)
              .executeTakeFirstOrThrow();
            return row.status;
          },
        });
      } finally {
        await shop.close();
      }
    });
  } finally {
    await hitpayServer.close();
    await tdb.drop();
  }
}

/** The id HitPay gave the request's one payment, after checking HitPay calls it succeeded. */
function succeededPaymentOf(sim: HitPaySimulator, requestId: string): string {
  const request = sim.listRequests().find((r) => r.id === requestId)!;
  assert.equal(request.status, "completed");
  assert.deepEqual(request.payments.map((p) => p.status), ["succeeded"]);
  return request.payments[0].id;
}

Deno.test({
  name: "[hitpay reconcile] a paid request whose webhook was held is paid; the webhook is a replay",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const { order, requestId } = await w.awaitingOrder("CRECONCILE0001");
      w.sim.holdWebhooks(true);
      w.sim.pay(requestId);
      const paymentId = succeededPaymentOf(w.sim, requestId);

      assert.equal(await reconcileHitPayPayment(w.db, w.hitpay, order), "paid");
      assert.equal(await w.statusOf(order.id), PAYMENT_RECEIVED);
      assert.deepEqual(await w.eventsOf(order.id), [
        { event_key: `${paymentId}:completed`, outcome: "paid" },
      ]);

      w.sim.holdWebhooks(false);
      w.sim.resendWebhook(requestId);
      await w.sim.awaitWebhooks();
      assert.deepEqual(w.webhookResults, ["duplicate"], "the held webhook, late, is a replay");
      assert.equal(
        await reconcileHitPayPayment(w.db, w.hitpay, order),
        "duplicate",
        "a second reconciliation changes nothing either",
      );
      assert.equal((await w.eventsOf(order.id)).length, 1);
    });
  },
});

Deno.test({
  name: "[hitpay reconcile] after the webhook paid the order, reconciling is a replay",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const { order, requestId } = await w.awaitingOrder("CRECONCILE0002");
      w.sim.pay(requestId);
      await w.sim.awaitWebhooks();
      assert.deepEqual(w.webhookResults, ["applied"]);
      assert.equal(await reconcileHitPayPayment(w.db, w.hitpay, order), "duplicate");
      assert.deepEqual(await w.eventsOf(order.id), [
        { event_key: `${succeededPaymentOf(w.sim, requestId)}:completed`, outcome: "paid" },
      ]);
    });
  },
});

Deno.test({
  name: "[hitpay reconcile] unpaid stays pending, a failed request moves to payment failed and " +
    "is still paid by a later completion; another amount is refused",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      w.sim.holdWebhooks(true);
      const unpaid = await w.awaitingOrder("CRECONCILE0003");
      assert.equal(await reconcileHitPayPayment(w.db, w.hitpay, unpaid.order), "pending");

      const failed = await w.awaitingOrder("CRECONCILE0004");
      w.sim.fail(failed.requestId);
      assert.equal(
        await reconcileHitPayPayment(w.db, w.hitpay, failed.order),
        PAYMENT_FAILED,
      );
      assert.equal(await w.statusOf(failed.order.id), PAYMENT_FAILED);
      assert.equal(
        await reconcileHitPayPayment(w.db, w.hitpay, failed.order),
        "duplicate",
        "the same failed request reported again changes nothing",
      );

      const other = await w.awaitingOrder("CRECONCILE0005", PRICE_CENTS + 1);
      w.sim.pay(other.requestId);
      assert.equal(
        await reconcileHitPayPayment(w.db, w.hitpay, other.order),
        "refused: amount does not match the order",
      );
      for (const { order } of [unpaid, other]) {
        assert.equal(await w.statusOf(order.id), AWAITING_PAYMENT);
      }
      assert.deepEqual(await w.eventsOf(unpaid.order.id), []);
      assert.deepEqual(
        (await w.eventsOf(failed.order.id)).map((e) => e.outcome),
        [PAYMENT_FAILED],
      );

      // The buyer pays on the page they came back to: HitPay's completion still pays the order.
      const paidLater = await receiveHitPayWebhook(w.db, {
        rawBody: signedCompletion(failed.order.id, failed.requestId),
        headers: new Headers(),
        salt: SALT,
      });
      assert.deepEqual(paidLater, { kind: "applied", outcome: "paid" });
      assert.equal(await w.statusOf(failed.order.id), PAYMENT_RECEIVED);
    });
  },
});

/** HitPay's v1 webhook of a completed payment of `requestId` for order `orderId`. */
function signedCompletion(orderId: string, requestId: string, cents = PRICE_CENTS): string {
  const fields = {
    payment_id: `late-${requestId}`,
    payment_request_id: requestId,
    reference_number: orderId,
    phone: "",
    amount: (cents / 100).toFixed(2),
    currency: "SGD",
    status: "completed",
  };
  return new URLSearchParams({ ...fields, hmac: signHitPayV1(fields, SALT) }).toString();
}

Deno.test({
  name: "[hitpay reconcile] a payment HitPay refunded before we heard of it pays nothing, once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const { order, requestId } = await w.awaitingOrder("CRECONCILE0006");
      // The webhook is lost, and the payment is refunded from HitPay's dashboard meanwhile: the
      // request stays "completed", only its payment says "refunded".
      w.sim.holdWebhooks(true);
      w.sim.pay(requestId);
      const paymentId = succeededPaymentOf(w.sim, requestId);
      w.sim.refund(requestId);
      const request = await w.hitpay.getPaymentRequest(requestId);
      assert.equal(request.status, "completed");
      assert.deepEqual(request.payments.map((p) => p.status), ["refunded"]);

      assert.equal(
        await reconcileHitPayPayment(w.db, w.hitpay, order),
        `payment refunded; order stays ${AWAITING_PAYMENT}`,
      );
      assert.equal(await w.statusOf(order.id), AWAITING_PAYMENT, "nothing to deliver");
      assert.equal(await reconcileHitPayPayment(w.db, w.hitpay, order), "duplicate");
      assert.deepEqual(await w.eventsOf(order.id), [
        {
          event_key: `${paymentId}:refunded`,
          outcome: `payment refunded; order stays ${AWAITING_PAYMENT}`,
        },
      ]);
    });
  },
});

Deno.test({
  name: "[hitpay webhook] a signed event refused for its amount leaves its key to the genuine one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const { order, requestId } = await w.awaitingOrder("CRECONCILE0007");
      const receive = (rawBody: string) =>
        receiveHitPayWebhook(w.db, { rawBody, headers: new Headers(), salt: SALT });
      const wrong = await receive(signedCompletion(order.id, requestId, PRICE_CENTS - 100));
      assert.deepEqual(wrong, { kind: "refused", reason: "amount does not match the order" });
      assert.deepEqual(
        await receive(signedCompletion(order.id, requestId, PRICE_CENTS - 100)),
        wrong,
        "sent again, it is refused again",
      );
      assert.deepEqual(await receive(signedCompletion(order.id, requestId)), {
        kind: "applied",
        outcome: "paid",
      });
      assert.equal(await w.statusOf(order.id), PAYMENT_RECEIVED);
    });
  },
});
