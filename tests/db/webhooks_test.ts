import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import {
  deliverWebhookEvent,
  listDeliveries,
  queueOrderEvents,
  setWebhookUrl,
  WEBHOOK_DELIVER_JOB,
} from "../../src/domain/resellers/webhooks.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const backend = testBackend();
const box = createSecretBox("a test key of at least thirty-two characters");

function orderOf(resellerId: string): OrderRow {
  return {
    id: "RTESTORDER1",
    buyer_type: "reseller",
    status: "successful",
    created_at: new Date("2026-11-23T10:00:00Z"),
    game: "PUBG Mobile",
    package: null,
    package_ed_name: "pubgm",
    user_name: "Player",
    user_id: "5551234",
    server_id: "",
    item: "60 UC",
    amount_cents: 105,
    supplier_order_id: "ED-1",
    denom: "60",
    reseller_id: resellerId,
    reseller_name: "Wren",
    old_balance_cents: 1000,
    new_balance_cents: 895,
  } as OrderRow;
}

async function webhookJobs(db: Db) {
  return (await db.selectFrom("jobs").select(["payload", "run_at"]).where(
    "kind",
    "=",
    WEBHOOK_DELIVER_JOB,
  ).orderBy("id").execute()).map((j) => j.payload as { eventId: string; retry: number });
}

Deno.test({
  name:
    `[webhooks:${backend}] events share their order's transaction; retries end after the schedule`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let slow = false;
    const hits: string[] = [];
    const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      hits.push(await req.text());
      if (slow) await new Promise((ok) => setTimeout(ok, 1000));
      return new Response("x".repeat(2000), { status: 500 });
    });
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const wren = await createTestReseller(db, {
          name: "Wren",
          email: "wren@test.example",
          password: "long enough",
          balanceCents: 1000,
        });
        const order = orderOf(wren._id);

        await db.transaction().execute((trx) => queueOrderEvents(trx, order, ["order.successful"]));
        assert.deepEqual(await webhookJobs(db), [], "no URL, no event");

        await setWebhookUrl(
          db,
          box,
          { resellerId: wren._id, name: "Wren" },
          `http://127.0.0.1:${receiver.addr.port}/h`,
          "demo",
        );
        await assert.rejects(
          db.transaction().execute(async (trx) => {
            await queueOrderEvents(trx, order, ["order.error", "order.refunded"]);
            throw new Error("the order change failed");
          }),
        );
        assert.deepEqual(await webhookJobs(db), [], "a rolled-back change leaves no event");

        await db.transaction().execute((trx) => queueOrderEvents(trx, order, ["order.successful"]));
        const [first] = await webhookJobs(db);
        assert.equal(first.retry, 0);
        const options = { retryDelaysSec: [60], timeoutMs: 300 };
        await deliverWebhookEvent(db, box, first, options);
        const jobs = await webhookJobs(db);
        assert.deepEqual(jobs.map((j) => j.retry), [0, 1], "a failure queues the next attempt");
        slow = true;
        await deliverWebhookEvent(db, box, jobs[1], options);
        assert.equal((await webhookJobs(db)).length, 2, "past the schedule's end: given up");
        assert.equal(hits.length, 2);
        assert.equal(hits[0], hits[1], "every attempt sends the same body");
        assert.equal(JSON.parse(hits[0]).data.order.id, "RTESTORDER1");

        const deliveries = await listDeliveries(db, wren._id);
        assert.deepEqual(
          deliveries.map((d) => [d.attempt, d.statusCode, d.error, d.responseExcerpt.length]),
          [[2, null, "no answer within 300 ms", 0], [1, 500, "HTTP 500", 500]],
        );
      });
    } finally {
      await receiver.shutdown();
      await tdb.drop();
    }
  },
});
