// The buyer's timeline read from where each fact is recorded: the payment that paid the order
// (HitPay's event, or an admin's confirmation), the first create sent to the supplier, the move
// that delivered or failed it, and how long the checks in Needs review took over the last 30
// days, measured from the stays the database records as each review ends.
import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import { sql } from "kysely";
import type { Db } from "../../src/db/client.ts";
import { findOrderById } from "../../src/db/repositories/orders.ts";
import { startSupplierAttempt } from "../../src/db/repositories/supplier-attempts.ts";
import {
  applyPaymentReport,
  HITPAY,
  settleManualPayment,
} from "../../src/domain/payments/consumer-payments.ts";
import {
  readConsumerOrderTimeline,
  usualReviewTime,
} from "../../src/domain/payments/consumer-order-timeline.ts";
import {
  AWAITING_PAYMENT,
  holdForReview,
  move,
  PAYMENT_RECEIVED,
  resolveReviewFlag,
} from "../../src/domain/orders/lifecycle.ts";
import { DEFAULT_USUAL_REVIEW_MINUTES } from "../../src/shared/consumer-order-timeline.ts";
import { NotFoundError } from "../../src/domain/errors.ts";
import { resolvePublicOrigin } from "../../src/config.ts";

const backend = testBackend();
// The "paid" receipt queued with a payment links to the shop.
resolvePublicOrigin({ publicUrl: "https://shop.example.com" }, "http://127.0.0.1:1");
const WAITING = { reseller: "new", consumer: PAYMENT_RECEIVED };

/** A HitPay order awaiting payment of $12.99 on payment request `req-{id}`. */
async function insertHitPayOrder(db: Db, id: string) {
  await db.insertInto("orders").values(consumerOrderRow({
    id,
    status: AWAITING_PAYMENT,
    amount_cents: 1299,
    payment_provider: HITPAY,
    payment_reference: `req-${id}`,
  })).execute();
}

/** HitPay's word that the order's request was paid, applied as the webhook applies it. */
async function payByHitPay(db: Db, id: string) {
  const result = await applyPaymentReport(db, {
    report: {
      provider: HITPAY,
      paymentRequestId: `req-${id}`,
      status: "completed",
      amountCents: 1299,
      currency: "SGD",
    },
    referenceNumber: id,
    eventKey: `pay-${id}:completed`,
    rawBody: "{}",
  });
  assert.deepEqual(result, { kind: "applied", outcome: "paid" });
}

/** A paid order put in Needs review `minutes` ago. */
async function inReviewFor(db: Db, id: string, minutes: number) {
  await db.insertInto("orders").values(consumerOrderRow({ id, status: PAYMENT_RECEIVED }))
    .execute();
  assert.ok(await holdForReview(db, id, "no usable answer"));
  await sql`UPDATE orders SET review_since = now() - make_interval(mins => ${minutes})
    WHERE id = ${id}`.execute(db);
}

const kinds = (t: { entries: { kind: string }[] }) => t.entries.map((e) => e.kind);

Deno.test({
  name: `[timeline:${backend}] each step shows when it happened, read from where it is recorded`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await t.step("awaiting payment: placed, waiting for the payment", async () => {
          await insertHitPayOrder(db, "C-TL-1");
          const timeline = await readConsumerOrderTimeline(db, "C-TL-1");
          const order = (await findOrderById(db, "C-TL-1"))!;
          assert.deepEqual(timeline, {
            status: AWAITING_PAYMENT,
            entries: [
              { kind: "placed", at: order.created_at.toISOString() },
              { kind: "awaiting-payment" },
            ],
            canCheckPayment: true,
          });
        });

        await t.step("paid: at the time HitPay's word was received", async () => {
          await payByHitPay(db, "C-TL-1");
          const event = await db.selectFrom("payment_events").select("received_at")
            .where("order_id", "=", "C-TL-1").executeTakeFirstOrThrow();
          const timeline = await readConsumerOrderTimeline(db, "C-TL-1");
          assert.deepEqual(kinds(timeline), ["placed", "paid", "sending"]);
          assert.deepEqual(timeline.entries[1], {
            kind: "paid",
            at: event.received_at.toISOString(),
          });
          assert.equal(timeline.canCheckPayment, false);
        });

        await t.step("sent: at the first create request to the supplier", async () => {
          assert.ok(await startSupplierAttempt(db, "C-TL-1", WAITING, "elephant"));
          const attempt = await db.selectFrom("supplier_attempts").select("started_at")
            .where("order_id", "=", "C-TL-1").executeTakeFirstOrThrow();
          const timeline = await readConsumerOrderTimeline(db, "C-TL-1");
          assert.deepEqual(kinds(timeline), ["placed", "paid", "sent", "delivering"]);
          assert.deepEqual(timeline.entries[2], {
            kind: "sent",
            at: attempt.started_at.toISOString(),
          });
        });

        await t.step("delivered: at the move that delivered it, last", async () => {
          const delivered = await move(db, "C-TL-1", "consumer", "delivered", {
            supplierOrderId: "ED-TL-1",
          });
          const timeline = await readConsumerOrderTimeline(db, "C-TL-1");
          assert.deepEqual(kinds(timeline), ["placed", "paid", "sent", "delivered"]);
          assert.deepEqual(timeline.entries[3], {
            kind: "delivered",
            at: delivered!.updated_at.toISOString(),
          });
        });

        await t.step("failed: not delivered, at the move that failed it", async () => {
          await insertHitPayOrder(db, "C-TL-2");
          await payByHitPay(db, "C-TL-2");
          assert.ok(await startSupplierAttempt(db, "C-TL-2", WAITING, "elephant"));
          const failed = await move(db, "C-TL-2", "consumer", "failed", {
            lastError: "refused by the supplier",
          });
          const timeline = await readConsumerOrderTimeline(db, "C-TL-2");
          assert.deepEqual(kinds(timeline), ["placed", "paid", "sent", "not-delivered"]);
          assert.deepEqual(timeline.entries[3], {
            kind: "not-delivered",
            at: failed!.updated_at.toISOString(),
          });
        });

        await t.step("a manual payment is paid when an admin confirmed it", async () => {
          await db.insertInto("orders").values(consumerOrderRow({
            id: "C-TL-3",
            status: AWAITING_PAYMENT,
          })).execute();
          const before = await readConsumerOrderTimeline(db, "C-TL-3");
          assert.equal(before.canCheckPayment, false, "nothing to ask HitPay about");
          await settleManualPayment(db, {
            orderId: "C-TL-3",
            cancel: false,
            actor: { type: "cli", name: "ops" },
          });
          const audit = await db.selectFrom("audit_log").select("at")
            .where("target_id", "=", "C-TL-3").executeTakeFirstOrThrow();
          const timeline = await readConsumerOrderTimeline(db, "C-TL-3");
          assert.deepEqual(timeline.entries[1], { kind: "paid", at: audit.at.toISOString() });
        });

        await t.step("only a consumer's order number has a timeline", async () => {
          await db.insertInto("orders").values(consumerOrderRow({
            id: "R-TL-1",
            buyer_type: "reseller",
            status: "pending",
          })).execute();
          await assert.rejects(readConsumerOrderTimeline(db, "R-TL-1"), NotFoundError);
          await assert.rejects(readConsumerOrderTimeline(db, "C-NO-SUCH"), NotFoundError);
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[timeline:${backend}] in Needs review the buyer is told the median check of the last 30 days, ` +
    "or the standing estimate, saying which",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await t.step("no review ended yet: the standing estimate", async () => {
          await inReviewFor(db, "C-RV-0", 5);
          const timeline = await readConsumerOrderTimeline(db, "C-RV-0");
          const entry = timeline.entries.at(-1)!;
          assert.equal(entry.kind, "in-review");
          const order = (await findOrderById(db, "C-RV-0"))!;
          assert.deepEqual(entry, {
            kind: "in-review",
            since: order.review_since!.toISOString(),
            usual: { minutes: DEFAULT_USUAL_REVIEW_MINUTES, measured: false },
          });
        });

        await t.step("every way a review ends is recorded with its length", async () => {
          await inReviewFor(db, "C-RV-1", 30);
          await inReviewFor(db, "C-RV-2", 60);
          await inReviewFor(db, "C-RV-3", 300);
          await move(db, "C-RV-1", "consumer", "delivered", { supplierOrderId: "ED-RV-1" });
          await resolveReviewFlag(db, "C-RV-2");
          await move(db, "C-RV-3", "consumer", "failed", { lastError: "refunded after review" });
          const spans = await db.selectFrom("order_review_spans")
            .select(["order_id", sql<number>`extract(epoch FROM ended_at - since)`.as("seconds")])
            .orderBy("order_id").execute();
          assert.deepEqual(spans.map((s) => s.order_id), ["C-RV-1", "C-RV-2", "C-RV-3"]);
          assert.deepEqual(spans.map((s) => Math.round(Number(s.seconds) / 60)), [30, 60, 300]);
          // A move of an order that was not in review records nothing.
          await db.insertInto("orders").values(consumerOrderRow({
            id: "C-RV-9",
            status: PAYMENT_RECEIVED,
          })).execute();
          await move(db, "C-RV-9", "consumer", "delivered", { supplierOrderId: "ED-RV-9" });
          assert.equal(
            (await db.selectFrom("order_review_spans").select("id").execute()).length,
            3,
          );
        });

        await t.step("the median of the last 30 days; an older review is not counted", async () => {
          await db.insertInto("orders").values(consumerOrderRow({ id: "C-RV-OLD" })).execute();
          await sql`INSERT INTO order_review_spans (order_id, since, ended_at)
            VALUES ('C-RV-OLD', now() - interval '40 days 5 minutes', now() - interval '40 days')`
            .execute(db);
          assert.deepEqual(await usualReviewTime(db), { minutes: 60, measured: true });
          const timeline = await readConsumerOrderTimeline(db, "C-RV-0");
          assert.deepEqual(timeline.entries.at(-1), {
            kind: "in-review",
            since: (await findOrderById(db, "C-RV-0"))!.review_since!.toISOString(),
            usual: { minutes: 60, measured: true },
          });
          // Thirty days on, none of them counts: the estimate again.
          const later = new Date(Date.now() + 31 * 24 * 60 * 60 * 1000);
          assert.deepEqual(await usualReviewTime(db, later), {
            minutes: DEFAULT_USUAL_REVIEW_MINUTES,
            measured: false,
          });
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});
