// Needs review over HTTP: an EliteDias top-up that times out is sent once, waits in
// the admins' queue while the reseller still sees it pending, and an admin resolves it; only
// admins see or act on the queue and the failed-jobs list.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { SHORT_SUPPLIER_TIMEOUT, startTestServer } from "../helpers/server.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoAdmin, signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import type { ReviewOrderDto } from "../../src/shared/order-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[orders] an uncertain EliteDias top-up waits in Needs review until an admin resolves it",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, (db) => seedDemoUsers(db));
    const server = await startTestServer(tdb, SHORT_SUPPLIER_TIMEOUT);
    try {
      const reseller = await signInDemoReseller(server.url);
      const admin = await signInDemoAdmin(server.url);
      const { body } = await pubgOrder(reseller);
      const balance = async () => (await reseller.get("/api/current_user")).json.user.balance;
      const start = await balance();
      const place = async () => {
        await simControl(server.url, "elitedias", "forceNext", [
          "timeout",
          1,
          "elitedias_reseller_topup_api",
        ]);
        const r = await reseller.post("/api/reseller/place_order", body);
        assert.equal(r.status, 201, r.text);
        return r.json.order.id as string;
      };
      const queue = async () =>
        (await admin.get("/api/orders/review")).json.orders as ReviewOrderDto[];
      const waitListed = async (id: string) => {
        for (let i = 0; i < 100 && !(await queue()).some((o) => o.id === id); i++) {
          await new Promise((ok) => setTimeout(ok, 100));
        }
        return (await queue()).find((o) => o.id === id);
      };

      const first = await place();
      await t.step(
        "the order is listed with its attempt; the reseller sees it pending",
        async () => {
          const listed = await waitListed(first);
          assert.ok(listed, "in Needs review");
          assert.equal(listed.attempts.length, 1);
          assert.equal(listed.attempts[0].outcome, "uncertain");
          assert.match(listed.reviewReason, /EliteDias/);
          const id = (await reseller.get("/api/current_user")).json.user._id;
          const mine = (await reseller.get(`/api/reseller/${id}/orders`)).json as {
            id: string;
            status: string;
          }[];
          assert.equal(mine.find((o) => o.id === first)?.status, "new");
          const counts = await simControl(server.url, "elitedias", "countsByReference") as {
            reference: string;
            requests: number;
          }[];
          assert.equal(counts.find((c) => c.reference === first), undefined, "never reached it");
        },
      );

      await t.step("only admins see or resolve the queue", async () => {
        assert.equal((await reseller.get("/api/orders/review")).status, 403);
        assert.equal(
          (await reseller.post(`/api/orders/${first}/review`, { action: "refund" })).status,
          403,
        );
        assert.equal((await reseller.get("/api/jobs/failed")).status, 403);
      });

      await t.step(
        "delivered needs the supplier's id; refund restores the balance once",
        async () => {
          const missing = await admin.post(`/api/orders/${first}/review`, { action: "delivered" });
          assert.equal(missing.status, 400);
          assert.match(missing.json.error ?? missing.text, /supplier's order id/);
          const bad = await admin.post(`/api/orders/${first}/review`, { action: "cancel" });
          assert.equal(bad.status, 400);
          const refunded = await admin.post(`/api/orders/${first}/review`, { action: "refund" });
          assert.equal(refunded.status, 200, refunded.text);
          assert.equal(refunded.json.order.status, "error");
          const again = await admin.post(`/api/orders/${first}/review`, { action: "refund" });
          assert.equal(again.status, 409);
          assert.equal(await balance(), start, "back to where it was, once");
          assert.equal((await queue()).some((o) => o.id === first), false);
        },
      );

      await t.step("marked delivered with the supplier's id, the reseller sees it", async () => {
        const second = await place();
        assert.ok(await waitListed(second));
        const done = await admin.post(`/api/orders/${second}/review`, {
          action: "delivered",
          supplierOrderId: "ED-777",
        });
        assert.equal(done.status, 200, done.text);
        assert.equal(done.json.order.status, "successful");
        assert.equal(done.json.order.supplierOrderID, "ED-777");
        assert.deepEqual((await admin.get("/api/jobs/failed")).json, { jobs: [] });
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
