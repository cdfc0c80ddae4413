// Automatic refunds of consumer orders' HitPay payments: a paid order that ends without delivery is
// refunded through HitPay exactly once, whoever asks and whatever HitPay's answers do; a refusal
// goes to an operator; a payment after the order expired is refunded, never delivered.
import assert from "node:assert/strict";
import { PRICE_CENTS, withWorld } from "../helpers/consumer-world.ts";
import { queueJob } from "../../src/domain/jobs.ts";
import { adminActor } from "../../src/domain/actor.ts";
import { ConflictError } from "../../src/domain/errors.ts";
import { SUPPLIER_CREATE_JOB } from "../../src/domain/orders/place.ts";
import { listReviewQueue, resolveReview } from "../../src/domain/orders/review-queue.ts";
import { holdForReview } from "../../src/domain/orders/lifecycle.ts";
import { failConsumerOrder } from "../../src/domain/payments/consumer-fulfilment.ts";
import { reconcileHitPayPayments } from "../../src/domain/payments/consumer-payments.ts";
import { HITPAY_REFUND_JOB } from "../../src/domain/payments/consumer-refunds.ts";
import {
  AWAITING_PAYMENT,
  FAILED,
  PAYMENT_EXPIRED,
  PAYMENT_RECEIVED,
  REFUNDED,
} from "../../src/domain/payments/consumer-states.ts";
import {
  HITPAY_REFUND_ENDPOINT,
  REFUND_REFUSED_MESSAGE,
} from "../../src/integrations/hitpay/simulator.ts";

const operator = adminActor({ _id: "A-1", name: "Olive" });

Deno.test({
  name: "[refunds] a paid order the supplier refuses is refunded through HitPay once, and the " +
    "buyer gets the refund email",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const { paymentId } = await w.paidOrder("CREFUND0001");
      w.suppliers.elitedias.rejectOrders();
      await w.runJobs(SUPPLIER_CREATE_JOB);
      assert.equal((await w.order("CREFUND0001")).status, FAILED);
      assert.deepEqual((await w.refundOf("CREFUND0001")).map((r) => [r.status, r.requested_by]), [
        ["requested", "system"],
      ]);

      assert.equal(await w.runJobs(HITPAY_REFUND_JOB), 1);
      const refunds = w.hitpaySim.listRefunds();
      assert.equal(refunds.length, 1, "one refund at HitPay");
      assert.equal(refunds[0].payment_id, paymentId);
      assert.equal(refunds[0].amount_refunded, 12.99);
      const [row] = await w.refundOf("CREFUND0001");
      assert.equal(row.status, "succeeded");
      assert.equal(row.hitpay_refund_id, refunds[0].id);
      assert.equal(row.amount_cents, PRICE_CENTS);
      assert.equal((await w.order("CREFUND0001")).status, REFUNDED);
      assert.deepEqual(await w.mailTo("crefund0001@example.com"), [
        "Payment received for order CREFUND0001",
        "Refund for order CREFUND0001",
      ]);

      // Asked again (a replayed failure, the job run twice): nothing more reaches HitPay.
      await w.db.transaction().execute((trx) =>
        failConsumerOrder(trx, "CREFUND0001", "refused again")
      );
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1);
      await assert.rejects(
        resolveReview(w.db, { orderId: "CREFUND0001", action: "refund", actor: operator }),
        ConflictError,
      );
    });
  },
});

Deno.test({
  name:
    "[refunds] a supplier's refusal wakes the refund job at once, not at the runner's next poll",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      await w.paidOrder("CREFUND0010");
      w.suppliers.elitedias.rejectOrders();
      // The job runner's kick (src/domain/jobs.ts), watched instead of served: which lanes were
      // asked to look for jobs now.
      const key = Symbol.for("topup.jobs.kick");
      const kicked: string[][] = [];
      const holder = globalThis as { [key: symbol]: unknown };
      const before = holder[key];
      holder[key] = (...kinds: string[]) => kicked.push(kinds);
      try {
        await w.runJobs(SUPPLIER_CREATE_JOB);
      } finally {
        holder[key] = before;
      }
      assert.equal((await w.order("CREFUND0010")).status, FAILED);
      assert.ok(
        kicked.some((kinds) => kinds.includes(HITPAY_REFUND_JOB)),
        `the refund lane was woken (kicks: ${JSON.stringify(kicked)})`,
      );
    });
  },
});

Deno.test({
  name:
    "[refunds] an admin's Refund and the automatic refund of one order, in parallel, make one " +
    "HitPay refund",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      await w.paidOrder("CREFUND0002");
      assert.ok(await holdForReview(w.db, "CREFUND0002", "no usable answer from EliteDias"));
      const asks = await Promise.allSettled([
        resolveReview(w.db, { orderId: "CREFUND0002", action: "refund", actor: operator }),
        resolveReview(w.db, { orderId: "CREFUND0002", action: "refund", actor: operator }),
        w.db.transaction().execute((trx) =>
          failConsumerOrder(trx, "CREFUND0002", "EliteDias refused the top-up")
        ),
      ]);
      assert.ok(asks.some((a) => a.status === "fulfilled"));
      for (const ask of asks) {
        if (ask.status === "rejected") assert.ok(ask.reason instanceof ConflictError, ask.reason);
      }
      const rows = await w.refundOf("CREFUND0002");
      assert.equal(rows.length, 1, "one refund row");
      // A second job for the same refund (an operator asking again meanwhile) runs beside the
      // first: the claim lets one of them send.
      await queueJob(w.db, HITPAY_REFUND_JOB, { refundId: rows[0].id, orderId: "CREFUND0002" });
      for (let pass = 0; pass < 3; pass++) await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1, "one refund at HitPay");
      assert.equal((await w.order("CREFUND0002")).status, REFUNDED);
      assert.deepEqual(
        (await w.mailTo("crefund0002@example.com")).filter((s) => s.startsWith("Refund")),
        ["Refund for order CREFUND0002"],
      );
    });
  },
});

Deno.test({
  name: "[refunds] a refund HitPay refuses waits in Needs review with HitPay's message; Refund " +
    "there asks again, Mark Delivered and Send Again are refused",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      await w.paidOrder("CREFUND0003");
      w.hitpaySim.forceNext("error", 1, HITPAY_REFUND_ENDPOINT);
      await w.db.transaction().execute((trx) =>
        failConsumerOrder(trx, "CREFUND0003", "EliteDias refused the top-up")
      );
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 0);
      const [refused] = await w.refundOf("CREFUND0003");
      assert.equal(refused.status, "refused");
      assert.equal(refused.error, REFUND_REFUSED_MESSAGE);
      assert.equal((await w.order("CREFUND0003")).status, FAILED);
      const queue = await listReviewQueue(w.db);
      assert.deepEqual(queue.map((o) => o.id), ["CREFUND0003"]);
      assert.match(queue[0].reviewReason, /HitPay refused the refund of \$12\.99 SGD/);
      assert.ok(queue[0].reviewReason.includes(REFUND_REFUSED_MESSAGE));
      assert.equal(queue[0].refund?.status, "refused");

      for (const action of ["delivered", "resend"] as const) {
        await assert.rejects(
          resolveReview(w.db, {
            orderId: "CREFUND0003",
            action,
            supplierOrderId: "ED-1",
            actor: operator,
          }),
          (error: Error) =>
            error instanceof ConflictError && /already failed and waits for its refund/.test(
              error.message,
            ),
        );
      }
      const after = await resolveReview(w.db, {
        orderId: "CREFUND0003",
        action: "refund",
        actor: operator,
      });
      assert.equal(after.status, FAILED);
      assert.equal(after.review_since, null, "out of the queue while HitPay is asked again");
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1);
      assert.equal((await w.order("CREFUND0003")).status, REFUNDED);
      assert.equal((await w.refundOf("CREFUND0003"))[0].error, null);
    });
  },
});

Deno.test({
  name: "[refunds] a refund whose answer was lost, or that timed out, is never made twice",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      await w.paidOrder("CREFUND0004");
      await w.paidOrder("CREFUND0005");
      // CREFUND0004: HitPay makes the refund and its answer never arrives.
      w.hitpaySim.forceNext("lost", 1, HITPAY_REFUND_ENDPOINT);
      await w.db.transaction().execute((trx) =>
        failConsumerOrder(trx, "CREFUND0004", "EliteDias refused the top-up")
      );
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1, "HitPay made it");
      const [lost] = await w.refundOf("CREFUND0004");
      assert.equal(lost.status, "requested", "no answer: to be found out");
      assert.match(lost.error ?? "", /HitPay refund/);
      assert.equal((await w.order("CREFUND0004")).status, FAILED);
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1, "found on the payment, not sent again");
      const [found] = await w.refundOf("CREFUND0004");
      assert.equal(found.status, "succeeded");
      assert.equal(found.hitpay_status, "payment refunded");
      assert.equal(found.sends, 1);
      assert.equal((await w.order("CREFUND0004")).status, REFUNDED);

      // CREFUND0005: HitPay never answers and makes nothing; the next attempt sends it once.
      w.hitpaySim.forceNext("timeout", 1, HITPAY_REFUND_ENDPOINT);
      await w.db.transaction().execute((trx) =>
        failConsumerOrder(trx, "CREFUND0005", "EliteDias refused the top-up")
      );
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 1);
      assert.equal((await w.refundOf("CREFUND0005"))[0].status, "requested");
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.equal(w.hitpaySim.listRefunds().length, 2);
      const [sent] = await w.refundOf("CREFUND0005");
      assert.equal(sent.status, "succeeded");
      assert.equal(sent.sends, 2);
      assert.equal((await w.order("CREFUND0005")).status, REFUNDED);
    });
  },
});

Deno.test({
  name: "[refunds] a payment after the shop expired the order is refunded and never sent to a " +
    "supplier",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWorld(async (w) => {
      const late = await w.awaitingOrder("CREFUND0006", 40);
      const recent = await w.awaitingOrder("CREFUND0007", 10);
      assert.deepEqual(
        await reconcileHitPayPayments(w.db, w.hitpay, { expiryMinutes: 30 }),
        { checked: 2, paid: 0, expired: 1, failed: 0 },
      );
      assert.equal((await w.order("CREFUND0006")).status, PAYMENT_EXPIRED);
      assert.equal((await w.order("CREFUND0007")).status, AWAITING_PAYMENT, "still in time");

      w.hitpaySim.pay(late.requestId);
      w.hitpaySim.pay(recent.requestId);
      await w.hitpaySim.awaitWebhooks();
      const paidLate = await w.order("CREFUND0006");
      assert.equal(paidLate.status, FAILED);
      assert.match(paidLate.last_error ?? "", /Paid after the order's payment time ran out/);
      const paymentId = w.hitpaySim.listRequests().find((r) => r.id === late.requestId)!
        .payments[0].id;
      assert.equal(paidLate.payment_id, paymentId);
      assert.equal((await w.order("CREFUND0007")).status, PAYMENT_RECEIVED);

      const creates = await w.db.selectFrom("jobs").select("payload")
        .where("kind", "=", SUPPLIER_CREATE_JOB).execute();
      assert.deepEqual(creates.map((j) => (j.payload as { orderId: string }).orderId), [
        "CREFUND0007",
      ]);
      await w.runJobs(SUPPLIER_CREATE_JOB);
      await w.runJobs(HITPAY_REFUND_JOB);
      assert.deepEqual(
        w.suppliers.elitedias.listOrders().map((o) => o.reference),
        ["CREFUND0007"],
        "the late one never reached the supplier",
      );
      const attempts = await w.db.selectFrom("supplier_attempts").select("order_id")
        .where("order_id", "=", "CREFUND0006").execute();
      assert.equal(attempts.length, 0);
      assert.equal((await w.order("CREFUND0006")).status, REFUNDED);
      assert.deepEqual(w.hitpaySim.listRefunds().map((r) => r.payment_id), [paymentId]);
      const [row] = await w.refundOf("CREFUND0006");
      assert.match(row.reason, /after the time to pay/);
      assert.deepEqual(
        (await w.mailTo("crefund0006@example.com")).filter((s) => s.startsWith("Refund")),
        ["Refund for order CREFUND0006"],
      );
    });
  },
});
