// GET /metrics counts every step of an order from the one place steps happen (the lifecycle's
// moves): an order of each kind (reseller and consumer; delivered, failed and refunded, held for
// review) moves exactly the counters it should, whichever path took it there.
import assert from "node:assert/strict";
import { testBackend } from "../helpers/backends.ts";
import { liveOrders, withOrderLives } from "../helpers/order-life.ts";
import { withWorld } from "../helpers/consumer-world.ts";
import { renderMetrics } from "../../src/observability/metrics.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";
import { orderJobHandlers } from "../../src/domain/orders/jobs.ts";
import { holdForReview } from "../../src/domain/orders/lifecycle.ts";
import {
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
  SUPPLIER_STATUS_JOB,
} from "../../src/domain/orders/place.ts";
import { HITPAY_REFUND_JOB } from "../../src/domain/payments/consumer-refunds.ts";
import {
  DELIVERED,
  FAILED,
  PAYMENT_RECEIVED,
  REFUNDED,
} from "../../src/domain/payments/consumer-states.ts";
import { pubgOrderInput } from "../helpers/orders.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

/** Every sample of /metrics whose name is `name`, keyed by its labels as written. */
async function samples(name: string): Promise<Map<string, number>> {
  const { text } = await renderMetrics();
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = line.match(/^([a-z_]+)\{([^}]*)\} (\S+)$/);
    if (m && m[1] === name) {
      found.set(m[2].replace(/worker="[^"]*",?/, "").replace(/,$/, ""), Number(m[3]));
    }
  }
  return found;
}

/** topup_orders_total by event for one audience at EliteDias. */
async function orderCounts(audience: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [labels, value] of await samples("topup_orders_total")) {
    if (!labels.includes('supplier="elitedias"') || !labels.includes(`"${audience}"`)) continue;
    counts[labels.match(/event="([a-z_]+)"/)![1]] = value;
  }
  return counts;
}

/** What `work` moved: each counter's increase over its value before. */
async function moved(audience: string, work: () => Promise<void>) {
  const before = await orderCounts(audience);
  const calls = await samples("topup_supplier_calls_total");
  const hooks = await samples("topup_hitpay_webhooks_total");
  await work();
  const after = await orderCounts(audience);
  const delta = (from: Map<string, number>, to: Map<string, number>) =>
    Object.fromEntries(
      [...to].filter(([k, v]) => v !== (from.get(k) ?? 0)).map((
        [k, v],
      ) => [k, v - (from.get(k) ?? 0)]),
    );
  const events = Object.fromEntries(
    Object.entries(after).filter(([k, v]) => v !== (before[k] ?? 0))
      .map(([k, v]) => [k, v - (before[k] ?? 0)]),
  );
  return {
    events,
    calls: delta(calls, await samples("topup_supplier_calls_total")),
    hooks: delta(hooks, await samples("topup_hitpay_webhooks_total")),
  };
}

const CREATE = 'vendor="elitedias",endpoint="elitedias_reseller_topup_api"';

Deno.test({
  name: `[order metrics:${backend}] reseller orders: delivered, refused and refunded, held for ` +
    "review, each counted once under its own step",
  ...opts,
  async fn() {
    await withOrderLives("Counted", 100_000, async ({ handle, db, sim, denom, ordering }) => {
      const timed = async () =>
        (await samples("topup_order_delivery_seconds_count"))
          .get('audience="reseller",supplier="elitedias"') ?? 0;
      const timedBefore = await timed();
      const delivered = await moved("reseller", async () => {
        await liveOrders(handle, sim, ordering, denom, 3);
      });
      assert.deepEqual(delivered.events, { placed: 3, delivered: 3 });
      assert.equal(await timed() - timedBefore, 3, "each delivery's time observed once");

      const runner = createJobRunner(db, orderJobHandlers(db, () => sim.suppliers), {
        worker: "metrics-test",
        log: () => {},
      });
      const place = async () =>
        (await placeResellerOrder(
          { db, suppliers: sim.suppliers },
          { ...pubgOrderInput(ordering.id, denom), knownReseller: ordering },
          crypto.randomUUID(),
        )).body.order.id;

      const refused = await moved("reseller", async () => {
        sim.elitedias.rejectOrders();
        const id = await place();
        await runner.runOnce(SUPPLIER_CREATE_JOB);
        const row = await db.selectFrom("orders").select("status").where("id", "=", id)
          .executeTakeFirstOrThrow();
        assert.equal(row.status, "error");
      });
      assert.deepEqual(refused.events, { placed: 1, failed: 1, refunded: 1 });
      assert.equal(
        refused.calls[`${CREATE},outcome="refused"`],
        1,
        `EliteDias's refusal counted as refused: ${JSON.stringify(refused.calls)}`,
      );
      assert.equal(refused.calls[`${CREATE},outcome="answered"`], undefined);

      const held = await moved("reseller", async () => {
        const id = await place();
        assert.ok(await holdForReview(db, id, "no usable answer from EliteDias"));
        assert.equal(await holdForReview(db, id, "again"), undefined, "already held: not twice");
      });
      assert.deepEqual(held.events, { placed: 1, held_for_review: 1 });
      await runner.stop();
    });
  },
});

Deno.test({
  name: `[order metrics:${backend}] consumer orders: paid and delivered, failed then refunded ` +
    "through HitPay, held for review; their webhooks counted by version and result",
  ...opts,
  async fn() {
    await withWorld(async (w) => {
      const delivered = await moved("consumer", async () => {
        await w.paidOrder("CMETRIC0001");
        await w.runJobs(SUPPLIER_CREATE_JOB);
        for (const o of w.suppliers.elitedias.listOrders()) {
          w.suppliers.elitedias.completeOrder(o.orderId);
        }
        await w.runJobs(SUPPLIER_STATUS_JOB);
        assert.equal((await w.order("CMETRIC0001")).status, DELIVERED);
      });
      assert.deepEqual(delivered.events, { placed: 1, delivered: 1 });
      assert.equal(
        Object.entries(delivered.hooks).filter(([k]) => k.includes('result="applied"'))
          .reduce((n, [, v]) => n + v, 0),
        1,
        `the payment's webhook counted as applied: ${JSON.stringify(delivered.hooks)}`,
      );

      const refunded = await moved("consumer", async () => {
        await w.paidOrder("CMETRIC0002");
        w.suppliers.elitedias.rejectOrders();
        await w.runJobs(SUPPLIER_CREATE_JOB);
        assert.equal((await w.order("CMETRIC0002")).status, FAILED);
        await w.runJobs(HITPAY_REFUND_JOB);
        assert.equal((await w.order("CMETRIC0002")).status, REFUNDED);
      });
      assert.deepEqual(refunded.events, { placed: 1, failed: 1, refunded: 1 });

      const held = await moved("consumer", async () => {
        await w.paidOrder("CMETRIC0003");
        assert.equal((await w.order("CMETRIC0003")).status, PAYMENT_RECEIVED);
        assert.ok(await holdForReview(w.db, "CMETRIC0003", "no usable answer from EliteDias"));
      });
      assert.deepEqual(held.events, { placed: 1, held_for_review: 1 });

      const forged = await moved("consumer", async () => {
        const r = await fetch(w.webhookUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "payment_id=x&reference_number=CMETRIC0001&status=completed&hmac=bad",
        });
        await r.body?.cancel();
      });
      assert.deepEqual(forged.hooks, { 'version="v1",result="bad_signature"': 1 });
    });
  },
});
