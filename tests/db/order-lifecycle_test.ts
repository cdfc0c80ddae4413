import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import type { Db } from "../../src/db/client.ts";
import type { NewOrder } from "../../src/db/schema.ts";
import { findOrderById, transitionOrder } from "../../src/db/repositories/orders.ts";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  move,
  PAYMENT_RECEIVED,
} from "../../src/domain/orders/lifecycle.ts";

const backend = testBackend();

/** A paid consumer order in Needs review, as an operator would find it. */
function paidOrderInReview(id: string): NewOrder {
  return consumerOrderRow({
    id,
    status: PAYMENT_RECEIVED,
    last_error: "no usable answer",
    review_since: new Date(),
    review_reason: "no usable answer",
  });
}

/** The columns a move may change, to compare an order before and after a refused one. */
async function stateOf(db: Db, id: string) {
  const row = (await findOrderById(db, id))!;
  return [row.status, row.supplier_order_id, row.last_error, row.review_reason, row.updated_at];
}

Deno.test({
  name:
    `[lifecycle:${backend}] moves apply the table, clear Needs review, and an unlisted move changes nothing`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await db.insertInto("orders").values(paidOrderInReview("C-LIFE-1")).execute();

        const sent = await move(db, "C-LIFE-1", "consumer", "sent", { supplierOrderId: "ED-1" });
        assert.equal(sent?.status, PAYMENT_RECEIVED);
        assert.equal(sent?.supplier_order_id, "ED-1");
        assert.equal(sent?.review_since, null, "a move ends the order's review");
        assert.equal(sent?.last_error, "no usable answer", "a move leaves what it does not name");

        const before = await stateOf(db, "C-LIFE-1");
        await assert.rejects(
          transitionOrder(db, "C-LIFE-1", { from: [PAYMENT_RECEIVED], to: AWAITING_PAYMENT }, {}),
          /payment-received-pending-disbursement → pending-customer-payment is not in the lifecycle table/,
        );
        assert.deepEqual(await stateOf(db, "C-LIFE-1"), before);

        const delivered = await move(db, "C-LIFE-1", "consumer", "delivered", { lastError: null });
        assert.equal(delivered?.status, DELIVERED);
        assert.equal(
          await move(db, "C-LIFE-1", "consumer", "failed", { lastError: "late" }),
          undefined,
          "a delivered order has moved on: the failure does not apply",
        );
        const after = await stateOf(db, "C-LIFE-1");
        await assert.rejects(
          transitionOrder(db, "C-LIFE-1", { from: [DELIVERED], to: "error" }, {}),
          /successful → error is not in the lifecycle table/,
        );
        assert.deepEqual(await stateOf(db, "C-LIFE-1"), after);
      });
    } finally {
      await tdb.drop();
    }
  },
});
