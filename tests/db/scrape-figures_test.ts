// What GET /metrics reads from the database at each scrape: open orders by the state an operator
// alerts on (awaiting payment, paid and not yet at a supplier, pending at a supplier) with the
// oldest one's age, Needs review's size, the FX rate's age and the last reconciliation's outcome.
import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import { putSetting } from "../../src/db/repositories/settings.ts";
import { readScrapeFigures } from "../../src/domain/operations/scrape-figures.ts";
import { FX_MARKET_RATE_KEY } from "../../src/domain/catalogue/exchange-rate.ts";
import { RECONCILE_LAST_RUN_KEY } from "../../src/domain/payments/consumer-payments.ts";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  PAYMENT_RECEIVED,
} from "../../src/domain/payments/consumer-states.ts";

const backend = testBackend();

Deno.test({
  name: `[scrape figures:${backend}] open orders by state with the oldest's age, Needs review, ` +
    "the FX rate's age and the last reconciliation",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const now = new Date();
        const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
        const before = await readScrapeFigures(db, now);
        assert.deepEqual(before.open.map((o) => [o.state, o.count, o.oldestAgeSeconds]), [
          ["awaiting_payment", 0, 0],
          ["awaiting_supplier", 0, 0],
          ["pending_at_supplier", 0, 0],
        ]);
        assert.equal(before.inReview, 0);
        assert.equal(before.fxRateAgeSeconds, undefined, "no rate fetched yet: no age");
        assert.equal(before.reconcile, undefined);

        const row = (id: string, status: string, minutes: number, extra = {}) =>
          consumerOrderRow({
            id,
            status: status as never,
            created_at: ago(minutes),
            updated_at: ago(minutes),
            ...extra,
          });
        await db.insertInto("orders").values([
          row("CSCRAPE0001", AWAITING_PAYMENT, 10),
          row("CSCRAPE0002", AWAITING_PAYMENT, 3),
          row("CSCRAPE0003", PAYMENT_RECEIVED, 20),
          row("CSCRAPE0004", PAYMENT_RECEIVED, 40, {
            supplier_order_id: "ED-1",
            review_since: ago(5),
            review_reason: "no usable answer",
          }),
          row("CSCRAPE0005", DELIVERED, 90, { supplier_order_id: "ED-2" }),
        ]).execute();
        await putSetting(db, FX_MARKET_RATE_KEY, {
          rate: "1.35",
          fetchedAt: ago(60).toISOString(),
        }, "system");
        await putSetting(db, RECONCILE_LAST_RUN_KEY, {
          endedAt: ago(2).toISOString(),
          outcomes: { checked: 3, paid: 1, expired: 0, failed: 0 },
        }, "system");

        const after = await readScrapeFigures(db, now);
        const open = Object.fromEntries(
          after.open.map((o) => [o.state, [o.count, o.oldestAgeSeconds / 60]]),
        );
        assert.deepEqual(open, {
          awaiting_payment: [2, 10],
          awaiting_supplier: [1, 20],
          pending_at_supplier: [1, 40],
        }, "a delivered order is not open; the oldest of each state gives its age");
        assert.equal(after.inReview, 1);
        assert.equal(after.fxRateAgeSeconds, 3600);
        assert.deepEqual(after.reconcile, {
          endedAt: ago(2),
          outcomes: { checked: 3, paid: 1, expired: 0, failed: 0 },
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});
