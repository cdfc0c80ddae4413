// GET /metrics counts every step of an order: a reseller order's delivery is counted whichever
// path finds it delivered, here the status check that marks it successful (with its webhook
// event in the same statement).
import assert from "node:assert/strict";
import { testBackend } from "../helpers/backends.ts";
import { liveOrders, withOrderLives } from "../helpers/order-life.ts";
import { renderMetrics } from "../../src/observability/metrics.ts";

const backend = testBackend();

/** topup_orders_total for reseller orders at EliteDias, by event, as /metrics renders it. */
async function resellerCounts(): Promise<Record<string, number>> {
  const { text } = await renderMetrics();
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = line.match(/^topup_orders_total\{([^}]*)\} (\d+)/);
    if (!m || !m[1].includes('supplier="elitedias"') || !/"reseller"/.test(m[1])) continue;
    counts[m[1].match(/event="([a-z]+)"/)![1]] = Number(m[2]);
  }
  return counts;
}

Deno.test({
  name: `[order metrics:${backend}] a reseller order is counted placed, then delivered once`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withOrderLives("Counted", 100_000, async ({ handle, sim, denom, ordering }) => {
      const before = await resellerCounts();
      const lives = await liveOrders(handle, sim, ordering, denom, 3);
      const rows = await handle.db.selectFrom("orders").select("status")
        .where("id", "in", lives.orders.map((o) => o.id)).execute();
      assert.deepEqual(rows.map((r) => r.status), ["successful", "successful", "successful"]);
      const after = await resellerCounts();
      const delta = (event: string) => (after[event] ?? 0) - (before[event] ?? 0);
      assert.equal(delta("placed"), 3);
      assert.equal(delta("delivered"), 3, "each delivered order counted once");
      assert.equal(delta("failed"), 0);
    });
  },
});
