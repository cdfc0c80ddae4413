// A consumer shop's world for domain tests: a database with PUBG Mobile launched, the supplier
// simulators, a HitPay simulator whose webhooks reach the shop's receiver, and a job runner with
// the order and refund lanes.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "./backends.ts";
import { startTestSuppliers } from "./suppliers.ts";
import { consumerOrderRow, launchPubgMobile } from "./orders.ts";
import { resolvePublicOrigin } from "../../src/config.ts";
import type { Db } from "../../src/db/client.ts";
import type { RefundRow } from "../../src/db/schema.ts";
import { setPaymentReference } from "../../src/db/repositories/orders.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";
import { checkConsumerOrders } from "../../src/domain/ledger/invariants.ts";
import { orderJobHandlers } from "../../src/domain/orders/jobs.ts";
import { HITPAY, receiveHitPayWebhook } from "../../src/domain/payments/consumer-payments.ts";
import { refundJobHandlers } from "../../src/domain/payments/consumer-refunds.ts";
import { AWAITING_PAYMENT, PAYMENT_RECEIVED } from "../../src/domain/payments/consumer-states.ts";
import { SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { createHitPayClient, type HitPayClient } from "../../src/integrations/hitpay/client.ts";
import {
  createHitPaySimulator,
  type HitPaySimulator,
} from "../../src/integrations/hitpay/simulator.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";

export const API_KEY = "refunds_api_key";
export const SALT = "refunds_salt";
export const PRICE_CENTS = 1299;

export interface World {
  db: Db;
  hitpaySim: HitPaySimulator;
  hitpay: HitPayClient;
  suppliers: ReturnType<typeof startTestSuppliers>;
  /** Where HitPay's webhooks reach the shop. */
  webhookUrl: string;
  /** A PUBG Mobile order awaiting its HitPay payment, `placedMinutesAgo` (0 by default). */
  awaitingOrder(id: string, placedMinutesAgo?: number): Promise<{ requestId: string }>;
  /** The order paid on HitPay's page, its webhook applied: payment received. */
  paidOrder(id: string): Promise<{ requestId: string; paymentId: string }>;
  /** One pass of the job runner over the due jobs of `kind`, every queued one made due first. */
  runJobs(kind: string): Promise<number>;
  order(
    id: string,
  ): Promise<{ status: string; last_error: string | null; payment_id: string | null }>;
  refundOf(id: string): Promise<RefundRow[]>;
  /** Subjects of the mail queued to `to`. */
  mailTo(to: string): Promise<string[]>;
}

export async function withWorld(run: (w: World) => Promise<void>): Promise<void> {
  // The receipts link to the order page.
  resolvePublicOrigin({ publicUrl: "https://shop.example.com" }, "http://127.0.0.1:1");
  const tdb = await createTestDatabase();
  // Answers held by a "lost" or "timeout" fault end long after the client gave up.
  const hitpaySim = createHitPaySimulator({ apiKey: API_KEY, salt: SALT, knobs: { holdMs: 5000 } });
  const hitpayServer = startSimulatorServer(hitpaySim.handler);
  const suppliers = startTestSuppliers();
  try {
    await withHandle(tdb, async (db) => {
      const shop = startSimulatorServer(async (request) => {
        const result = await receiveHitPayWebhook(db, {
          rawBody: await request.text(),
          headers: request.headers,
          salt: SALT,
        });
        return Response.json(result);
      });
      const hitpay = createHitPayClient({
        baseUrl: `${hitpayServer.url}/v1`,
        apiKey: API_KEY,
        timeoutMs: 1000,
      });
      const runner = createJobRunner(db, {
        ...orderJobHandlers(db, () => suppliers.suppliers),
        ...refundJobHandlers(db, () => hitpay),
      }, { worker: "refunds-test", log: () => {} });
      await launchPubgMobile(db, suppliers.suppliers);
      const game = await db.selectFrom("games").select("game_items")
        .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
      const denom = (game.game_items as GameItemDto[])[0].nameSupplier;
      const awaitingOrder = async (id: string, placedMinutesAgo = 0) => {
        const placed = new Date(Date.now() - placedMinutesAgo * 60_000);
        await db.insertInto("orders").values(consumerOrderRow({
          id,
          status: AWAITING_PAYMENT,
          game: "PUBG Mobile",
          item: "60 UC",
          denom,
          package_ed_name: "pubgm",
          user_id: "5551234",
          server_id: "",
          amount_cents: PRICE_CENTS,
          consumer_email: `${id.toLowerCase()}@example.com`,
          payment_provider: HITPAY,
          created_at: placed,
          updated_at: placed,
        })).execute();
        const request = await hitpay.createPaymentRequest({
          amountCents: PRICE_CENTS,
          currency: "SGD",
          referenceNumber: id,
          redirectUrl: "https://shop.example.com/payment/success",
          webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
          paymentMethods: ["paynow_online"],
        });
        assert.ok(await setPaymentReference(db, id, HITPAY, request.id));
        return { requestId: request.id };
      };
      const order = (id: string) =>
        db.selectFrom("orders").select(["status", "last_error", "payment_id"])
          .where("id", "=", id).executeTakeFirstOrThrow();
      try {
        await run({
          db,
          hitpaySim,
          hitpay,
          suppliers,
          webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
          awaitingOrder,
          async paidOrder(id) {
            const { requestId } = await awaitingOrder(id);
            hitpaySim.pay(requestId);
            await hitpaySim.awaitWebhooks();
            const paymentId = hitpaySim.listRequests().find((r) => r.id === requestId)!
              .payments[0].id;
            const paid = await order(id);
            assert.equal(paid.status, PAYMENT_RECEIVED);
            assert.equal(paid.payment_id, paymentId, "the webhook's payment id is kept");
            return { requestId, paymentId };
          },
          async runJobs(kind) {
            await db.updateTable("jobs").set({ run_at: new Date() })
              .where("kind", "=", kind).where("done_at", "is", null).execute();
            return await runner.runOnce(kind);
          },
          order,
          refundOf: (id) =>
            db.selectFrom("refunds").selectAll().where("order_id", "=", id).execute(),
          async mailTo(to) {
            const jobs = await db.selectFrom("jobs").select("payload")
              .where("kind", "=", SEND_MAIL_JOB).orderBy("id").execute();
            return jobs.map((j) => j.payload as { to: string; subject: string })
              .filter((p) => p.to === to).map((p) => p.subject);
          },
        });
        assert.deepEqual(await checkConsumerOrders(db), [], "the consumer invariants hold");
      } finally {
        await runner.stop();
        await shop.close();
      }
    });
  } finally {
    await suppliers.close();
    await hitpayServer.close();
    await tdb.drop();
  }
}
