// `orders refund ID`: Needs review's Refund from the command line, audited as the operator. A
// consumer order whose HitPay refund was refused has HitPay asked again; an order not waiting for
// review is refused with the reason, and nothing changes.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { runCli } from "../helpers/cli.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import { HITPAY_REFUND_JOB } from "../../src/domain/payments/consumer-refunds.ts";

Deno.test({
  name: "[orders refund] asks HitPay again for a refused consumer refund, audited; an order not " +
    "in review is refused",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    try {
      await withHandle(tdb, async (db) => {
        for (const [id, review] of [["CREFUNDCLI001", true], ["CREFUNDCLI002", false]] as const) {
          await db.insertInto("orders").values(consumerOrderRow({
            id,
            status: "error",
            payment_provider: "hitpay",
            payment_reference: `req-${id}`,
            payment_id: `pay-${id}`,
            last_error: "EliteDias refused the top-up",
            review_since: review ? new Date() : null,
            review_reason: review ? "HitPay refused the refund of $1.00 SGD: no" : null,
          })).execute();
          await db.insertInto("refunds").values({
            order_id: id,
            payment_id: `pay-${id}`,
            amount_cents: 100,
            reason: "We could not deliver this top-up to your account.",
            requested_by: "system",
            status: "refused",
            error: "no",
          }).execute();
        }
      });

      const run = await runCli(["orders", "refund", "CREFUNDCLI001", "--json"], {
        ...tdb.env,
        USER: "olive",
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), {
        order: "CREFUNDCLI001",
        status: "error",
        lastError: "EliteDias refused the top-up",
      });
      const refused = await runCli(["orders", "refund", "CREFUNDCLI002"], {
        ...tdb.env,
        USER: "olive",
      });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /Order CREFUNDCLI002 is not waiting for review/);

      await withHandle(tdb, async (db) => {
        const refunds = await db.selectFrom("refunds").select(["order_id", "status", "error"])
          .orderBy("order_id").execute();
        assert.deepEqual(refunds, [
          { order_id: "CREFUNDCLI001", status: "requested", error: null },
          { order_id: "CREFUNDCLI002", status: "refused", error: "no" },
        ]);
        const jobs = await db.selectFrom("jobs").select("payload")
          .where("kind", "=", HITPAY_REFUND_JOB).execute();
        assert.deepEqual(jobs.map((j) => (j.payload as { orderId: string }).orderId), [
          "CREFUNDCLI001",
        ]);
        const order = await db.selectFrom("orders").select("review_since")
          .where("id", "=", "CREFUNDCLI001").executeTakeFirstOrThrow();
        assert.equal(order.review_since, null, "out of the queue while HitPay is asked again");
        const audit = await db.selectFrom("audit_log").select(["action", "target_id", "actor_name"])
          .execute();
        assert.deepEqual(audit, [{
          action: "order.review_refund",
          target_id: "CREFUNDCLI001",
          actor_name: "olive",
        }]);
      });
    } finally {
      await tdb.drop();
    }
  },
});
