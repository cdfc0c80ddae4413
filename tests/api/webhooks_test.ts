import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoAdmin, signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { RATE_LIMITED_MESSAGE } from "../../src/domain/auth/rate-limit.ts";
import { WEBHOOK_RESENDS_PER_RESELLER } from "../../src/domain/resellers/webhooks.ts";
import {
  insertWebhookDelivery,
  insertWebhookEvent,
  upsertResellerWebhook,
} from "../../src/db/repositories/webhooks.ts";
import {
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from "../../src/shared/webhook-signature.ts";
import type { WebhookDeliveryDto } from "../../src/shared/webhook-types.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const BEE_PASSWORD = "b-reseller-pass";

interface Received {
  header: string | null;
  raw: string;
  event: { id: string; type: string; created: string; data: { order: { id: string } } };
}

/**
 * A reseller's receiver as the README describes it: answers 503 to the very first request (so
 * the server must retry), then 200; keeps each event id once and counts the repeats it drops.
 */
function startReceiver() {
  const all: Received[] = [];
  const events = new Map<string, Received>();
  let repeats = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const raw = await req.text();
    const got: Received = {
      header: req.headers.get(WEBHOOK_SIGNATURE_HEADER),
      raw,
      event: JSON.parse(raw),
    };
    all.push(got);
    if (all.length === 1) return new Response("warming up", { status: 503 });
    if (events.has(got.event.id)) repeats++;
    else events.set(got.event.id, got);
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hooks/topup`,
    all,
    events,
    repeats: () => repeats,
    byOrder: (orderId: string, type: string) =>
      [...events.values()].filter((e) =>
        e.event.data.order.id === orderId && e.event.type === type
      ),
    stop: () => server.shutdown(),
  };
}

async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms = 30_000) {
  const until = Date.now() + ms;
  while (!await done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

Deno.test({
  name: "[webhooks] signed order events reach the reseller's receiver once, through retries",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createTestReseller(db, {
        name: "Bee Reseller",
        email: "bee@test.example",
        password: BEE_PASSWORD,
        balanceCents: 5000,
        markup: { mlbb: 1, mlbb_special: 1, mlbb_global: 1 },
      });
    });
    // Retries a second apart instead of the production schedule's minutes and hours.
    const server = await startTestServer(tdb, { WEBHOOK_RETRY_DELAYS: "1,1,1" });
    const receiver = startReceiver();
    try {
      const a = await signInDemoReseller(server.url);
      const b = new TestClient(server.url);
      const bLogin = await b.post("/api/login_reseller", {
        username: "bee@test.example",
        password: BEE_PASSWORD,
      });
      assert.equal(bLogin.status, 200, bLogin.text);
      const aId = (await a.get("/api/current_user")).json.user._id as string;
      const { body } = await pubgOrder(a);
      let secret = "";

      await t.step("a reseller sets a callback URL and gets a secret once", async () => {
        assert.equal((await new TestClient(server.url).get("/api/reseller/webhook")).status, 401);
        assert.deepEqual((await a.get("/api/reseller/webhook")).json, {
          url: null,
          updatedAt: null,
        });
        const bad = await a.request("PUT", "/api/reseller/webhook", {
          url: "ftp://shop.example/x",
        });
        assert.equal(bad.status, 400);
        assert.equal(bad.json.error, "The callback URL must use https or http");
        assert.equal(
          (await a.request("PUT", "/api/reseller/webhook", { url: "not a url" })).status,
          400,
        );
        const set = await a.request("PUT", "/api/reseller/webhook", { url: receiver.url });
        assert.equal(set.status, 200, set.text);
        assert.equal(set.json.url, receiver.url);
        assert.match(set.json.secret, /^whsec_[\w-]{32}$/);
        secret = set.json.secret;
        assert.equal(set.headers.get("cache-control"), "no-store");
        const again = await a.request("PUT", "/api/reseller/webhook", { url: receiver.url });
        assert.equal(again.json.secret, undefined, "changing the URL keeps the secret unseen");
        const read = await a.get("/api/reseller/webhook");
        assert.equal(read.json.url, receiver.url);
        assert.ok(!read.text.includes(secret), "the secret is never read back");
        assert.equal((await b.get("/api/reseller/webhook")).json.url, null, "B has its own");
      });

      let orderId = "";
      await t.step("a successful order is delivered signed, retried after a 503", async () => {
        const r = await a.post("/api/reseller/place_order", body, { "idempotency-key": "wh-1" });
        assert.equal(r.status, 201, r.text);
        orderId = r.json.order.id;
        await waitFor("order.successful", async () => {
          await a.post(`/api/reseller/order/${orderId}/refresh_status`, { denom: body.denom });
          return receiver.byOrder(orderId, "order.successful").length === 1;
        });
        const [got] = receiver.byOrder(orderId, "order.successful");
        assert.equal(receiver.all[0].event.id, got.event.id, "the 503 was this event's first try");
        assert.equal(receiver.all[0].raw, got.raw, "a retry sends the same bytes");
        assert.equal(got.event.data.order.id, orderId);
        assert.ok(await verifyWebhookSignature(secret, got.header, got.raw, 300));
        assert.match(got.header!, /^t=\d+,v1=[0-9a-f]{64}$/);
        assert.equal(
          await verifyWebhookSignature("whsec_wrong", got.header, got.raw, 300),
          false,
          "a wrong secret fails",
        );
        assert.equal(
          await verifyWebhookSignature(secret, got.header, got.raw.replace(orderId, "x"), 300),
          false,
          "a changed body fails",
        );
        const late = Math.floor(Date.now() / 1000) + 3600;
        assert.equal(
          await verifyWebhookSignature(secret, got.header, got.raw, 300, late),
          false,
          "an old signature fails",
        );
        const list = (await a.get("/api/reseller/webhook/deliveries")).json
          .deliveries as WebhookDeliveryDto[];
        const mine = list.filter((d) => d.eventId === got.event.id).reverse();
        assert.deepEqual(
          mine.map((d) => [d.attempt, d.statusCode, d.ok, d.error]),
          [[1, 503, false, "HTTP 503"], [2, 200, true, null]],
        );
        assert.ok(!JSON.stringify(list).includes("warming up"), "the receiver's words stay out");
        assert.equal(mine[1].type, "order.successful");
        assert.equal(mine[1].orderId, orderId);
      });

      await t.step("a refused order sends order.error and order.refunded", async () => {
        await simControl(server.url, "elitedias", "rejectOrders");
        const r = await a.post("/api/reseller/place_order", body, { "idempotency-key": "wh-2" });
        assert.equal(r.status, 201, r.text);
        const failed = r.json.order.id as string;
        await waitFor(
          "order.refunded",
          () =>
            receiver.byOrder(failed, "order.refunded").length === 1 &&
            receiver.byOrder(failed, "order.error").length === 1,
        );
        const [refunded] = receiver.byOrder(failed, "order.refunded");
        assert.ok(await verifyWebhookSignature(secret, refunded.header, refunded.raw, 300));
        await simControl(server.url, "elitedias", "acceptOrders");
      });

      let deliveryId = "";
      await t.step("rolling the secret signs later deliveries with the new one", async () => {
        const rolled = await a.post("/api/reseller/webhook/roll_secret");
        assert.equal(rolled.status, 200, rolled.text);
        assert.notEqual(rolled.json.secret, secret);
        secret = rolled.json.secret;
        const list = (await a.get("/api/reseller/webhook/deliveries")).json
          .deliveries as WebhookDeliveryDto[];
        const successful = list.find((d) => d.type === "order.successful" && d.ok)!;
        deliveryId = successful.id;
        const before = receiver.all.length;
        const resend = await a.post(`/api/reseller/webhook/deliveries/${deliveryId}/resend`);
        assert.equal(resend.status, 202, resend.text);
        await waitFor("the resend", () => receiver.all.length === before + 1);
        const last = receiver.all.at(-1)!;
        assert.equal(last.event.id, successful.eventId, "a resend carries the same event id");
        assert.ok(await verifyWebhookSignature(secret, last.header, last.raw, 300));
        assert.equal(receiver.repeats(), 1, "the receiver dropped the repeat by its id");
        assert.equal(
          [...receiver.events.values()].length,
          3,
          "each event was seen once: successful, error, refunded",
        );
      });

      await t.step("another reseller cannot see or resend A's deliveries", async () => {
        assert.deepEqual((await b.get("/api/reseller/webhook/deliveries")).json, {
          deliveries: [],
        });
        const resend = await b.post(`/api/reseller/webhook/deliveries/${deliveryId}/resend`);
        assert.equal(resend.status, 404);
        assert.equal(
          (await b.post("/api/reseller/webhook/deliveries/not-a-uuid/resend")).status,
          404,
        );
        assert.equal((await b.post("/api/reseller/webhook/roll_secret")).status, 400);
        const anonymous = new TestClient(server.url);
        assert.equal(
          (await anonymous.post(`/api/reseller/webhook/deliveries/${deliveryId}/resend`)).status,
          401,
        );
        assert.equal((await anonymous.get("/api/reseller/webhook/deliveries")).status, 401);
      });

      await t.step(
        "setting the URL and rolling the secret are audited, secrets never",
        async () => {
          const admin = await signInDemoAdmin(server.url);
          assert.equal(
            (await admin.post(`/api/reseller/webhook/deliveries/${deliveryId}/resend`)).status,
            403,
          );
          const audit = (await admin.get("/api/audit_log?action=reseller.webhook")).json;
          const actions = audit.entries.map((e: { action: string; actorId: string }) => [
            e.action,
            e.actorId,
          ]);
          assert.deepEqual(actions, [
            ["reseller.webhook.roll_secret", aId],
            ["reseller.webhook.set_url", aId],
            ["reseller.webhook.set_url", aId],
          ]);
          assert.deepEqual(audit.entries[2].after, { url: receiver.url });
          assert.ok(!JSON.stringify(audit).includes("whsec_"), "no secret in the audit log");
        },
      );
    } finally {
      await receiver.stop();
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[webhooks] 200 parallel resends of one delivery queue one; a reseller's resends are rate-limited",
  ...opts,
  async fn() {
    const { max } = WEBHOOK_RESENDS_PER_RESELLER;
    const tdb = await createTestDatabase();
    // Deliveries of max + 1 events, seeded while no server holds the database. No job runs on the
    // server below: a resend stays pending, so every refusal is the limit's, not a race's.
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      const { id } = await db.selectFrom("resellers").select("id")
        .where("email", "=", DEMO_RESELLER.email).executeTakeFirstOrThrow();
      const url = "http://127.0.0.1:9/hooks/topup";
      const events = Array.from({ length: max + 1 }, () => crypto.randomUUID());
      await db.transaction().execute(async (trx) => {
        await upsertResellerWebhook(trx, { resellerId: id, url, secretSealed: "not opened" });
        for (const [i, eventId] of events.entries()) {
          await insertWebhookEvent(trx, {
            id: eventId,
            resellerId: id,
            type: "order.successful",
            orderId: `RSEED${i}`,
            body: "{}",
          });
        }
      });
      for (const eventId of events) {
        await insertWebhookDelivery(db, {
          eventId,
          resellerId: id,
          url,
          attempt: 1,
          statusCode: 500,
          error: "HTTP 500",
          durationMs: 5,
        });
      }
    });
    try {
      // 50 connections: on PostgreSQL the burst reaches the database 50 transactions at a time.
      const server = await startTestServer(tdb, { RUN_JOBS: "false", DATABASE_POOL_SIZE: "50" });
      try {
        const a = await signInDemoReseller(server.url);
        const deliveries = (await a.get("/api/reseller/webhook/deliveries")).json
          .deliveries as WebhookDeliveryDto[];
        assert.equal(deliveries.length, max + 1);
        const resend = (id: string) => a.post(`/api/reseller/webhook/deliveries/${id}/resend`);
        const tally = (statuses: number[]) =>
          statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

        const burst = await Promise.all(
          Array.from({ length: 200 }, () => resend(deliveries[0].id)),
        );
        assert.deepEqual(tally(burst.map((r) => r.status)), { 202: 1, 409: 199 });
        assert.equal(
          burst.find((r) => r.status === 409)!.json.error,
          "This event is already queued to be sent again; refresh to see its answer",
        );

        // The refused ones counted nothing: the reseller still has max - 1 resends in the window.
        const rest = await Promise.all(deliveries.slice(1, max).map((d) => resend(d.id)));
        assert.deepEqual(tally(rest.map((r) => r.status)), { 202: max - 1 });
        const over = await resend(deliveries[max].id);
        assert.equal(over.status, 429, over.text);
        assert.equal(over.json.error, RATE_LIMITED_MESSAGE);
        assert.equal(
          over.headers.get("retry-after"),
          String(WEBHOOK_RESENDS_PER_RESELLER.windowSeconds),
        );
      } finally {
        await server.stop();
      }
      await withHandle(tdb, async (db) => {
        const queued = await db.selectFrom("jobs").select("payload")
          .where("kind", "=", "webhook.deliver").execute();
        const resends = queued.map((j) => j.payload as { eventId: string; retry: number })
          .filter((p) => p.retry === -1);
        assert.equal(resends.length, max, "one resend per event, max in all");
        assert.equal(new Set(resends.map((p) => p.eventId)).size, max);
      });
    } finally {
      await tdb.drop();
    }
  },
});
