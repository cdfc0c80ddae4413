import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import {
  deliverWebhookEvent,
  getWebhookSettings,
  listDeliveries,
  queueOrderEvents,
  resendDelivery,
  setWebhookUrl,
  WEBHOOK_DELIVER_JOB,
  type WebhookDeliveryOptions,
} from "../../src/domain/resellers/webhooks.ts";
import { ConflictError, ValidationError } from "../../src/domain/errors.ts";
import { retryFailedJobAsOperator } from "../../src/domain/admin/failed-jobs.ts";
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
          password: "long enough password",
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
        const options = { retryDelaysSec: [60], timeoutMs: 300, mode: "demo" as const };
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
          deliveries.map((d) => [d.attempt, d.statusCode, d.error]),
          [[2, null, "timeout"], [1, 500, "HTTP 500"]],
        );
      });
    } finally {
      await receiver.shutdown();
      await tdb.drop();
    }
  },
});

/** A test's own receiver certificate and key: self-signed for the name hook.test only. */
const HOOK_TLS = {
  cert: Deno.readTextFileSync(new URL("../fixtures/webhooks/hook.test.crt", import.meta.url)),
  key: Deno.readTextFileSync(new URL("../fixtures/webhooks/hook.test.key", import.meta.url)),
};

/** A resolver from a table (no network here): other names do not resolve; questions are kept. */
function resolverOf(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = (host: string) => {
    asked.push(host);
    return table[host]
      ? Promise.resolve(table[host])
      : Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`));
  };
  return { resolve, asked };
}

/** A receiver on 127.0.0.1 that keeps the Host of each request reaching it. */
function startReceiver(
  reply: () => Response | Promise<Response>,
  tls?: { cert: string; key: string },
) {
  const hosts: (string | null)[] = [];
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {}, ...tls },
    async (req) => {
      hosts.push(req.headers.get("host"));
      await req.body?.cancel();
      return await reply();
    },
  );
  return { port: server.addr.port, hosts, stop: () => server.shutdown() };
}

/** Sets `url` as Wren's webhook, queues an event and runs its first attempt with `options`. */
async function deliverOnce(
  db: Db,
  resellerId: string,
  url: string,
  options: WebhookDeliveryOptions,
) {
  await setWebhookUrl(db, box, { resellerId, name: "Wren" }, url, "demo");
  await db.transaction().execute((trx) =>
    queueOrderEvents(trx, orderOf(resellerId), ["order.successful"])
  );
  const job = (await webhookJobs(db)).at(-1)!;
  await deliverWebhookEvent(db, box, job, options);
  const [latest] = await listDeliveries(db, resellerId);
  assert.equal(latest.eventId, job.eventId);
  return latest;
}

Deno.test({
  name:
    `[webhooks:${backend}] production refuses hosts that resolve inside, when saved and when sent (DNS rebinding)`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const inside = startReceiver(() => new Response("internal admin panel"));
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const wren = await createTestReseller(db, {
          name: "Wren",
          email: "wren@test.example",
          password: "long enough password",
          balanceCents: 1000,
        });
        const actor = { resellerId: wren._id, name: "Wren" };
        const dns = resolverOf({
          "127.0.0.1.nip.io": ["127.0.0.1"],
          "localtest.me": ["127.0.0.1", "::1"],
          "metadata.shop.example": ["169.254.169.254"],
          "mixed.shop.example": ["93.184.215.14", "10.0.0.7"],
          "hooks.shop.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        });
        for (
          const url of [
            "https://127.0.0.1.nip.io/",
            "https://localtest.me/hook",
            "https://metadata.shop.example/latest/meta-data",
            "https://mixed.shop.example/",
            "https://unknown.shop.example/",
          ]
        ) {
          await assert.rejects(
            setWebhookUrl(db, box, actor, url, "production", dns.resolve),
            new ValidationError("The callback URL must be on a public host"),
            url,
          );
        }
        assert.equal((await getWebhookSettings(db, wren._id)).url, null, "nothing was saved");

        // Public when saved, loopback when sent: the send resolves again and refuses.
        const url = `https://hooks.shop.example:${inside.port}/h`;
        await setWebhookUrl(db, box, actor, url, "production", dns.resolve);
        await db.transaction().execute((trx) =>
          queueOrderEvents(trx, orderOf(wren._id), ["order.successful"])
        );
        const [job] = await webhookJobs(db);
        const rebound = resolverOf({ "hooks.shop.example": ["127.0.0.1"] });
        await deliverWebhookEvent(db, box, job, {
          retryDelaysSec: [],
          timeoutMs: 2000,
          mode: "production",
          resolve: rebound.resolve,
        });
        assert.deepEqual(rebound.asked, ["hooks.shop.example"], "resolved at send time");
        assert.deepEqual(inside.hosts, [], "nothing reached the loopback receiver");
        const [refused] = await listDeliveries(db, wren._id);
        assert.deepEqual(
          [refused.statusCode, refused.ok, refused.error],
          [null, false, "refused: not a public address"],
        );
      });
    } finally {
      await inside.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[webhooks:${backend}] a send reaches only the vetted address, under its name, follows no redirect and keeps no reply`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const plain = startReceiver(() => new Response("you reached the inside"));
    const tls = startReceiver(() => new Response("created", { status: 201 }), HOOK_TLS);
    const redirect = startReceiver(() =>
      new Response(null, {
        status: 307,
        headers: { location: `http://127.0.0.1:${plain.port}/elsewhere` },
      })
    );
    const failing = startReceiver(() =>
      new Response("stack trace: password=hunter2", { status: 500 })
    );
    // Answers only once the test ends (a receiver's shutdown waits for its open requests).
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const hanging = startReceiver(() => released.then(() => new Response("late")));
    // An SSH server's banner where a webhook receiver should be: a port scan's answer.
    const banner = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    (async () => {
      for await (const conn of banner) {
        await conn.write(new TextEncoder().encode("SSH-2.0-OpenSSH_9.6\r\n")).catch(() => {});
        conn.close();
      }
    })();
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closedPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const wren = await createTestReseller(db, {
          name: "Wren",
          email: "wren@test.example",
          password: "long enough password",
          balanceCents: 1000,
        });
        // None of these names resolves on this machine: a request that arrives went to the
        // address the test's resolver gave, with no second lookup.
        const dns = resolverOf({
          "receiver.test": ["127.0.0.1"],
          "hook.test": ["127.0.0.1"],
          "other.test": ["127.0.0.1"],
          "lan.test": ["10.0.0.5"],
        });
        const options: WebhookDeliveryOptions = {
          retryDelaysSec: [],
          timeoutMs: 1500,
          mode: "demo",
          resolve: dns.resolve,
          ca: HOOK_TLS.cert,
        };
        const send = (url: string) => deliverOnce(db, wren._id, url, options);
        const outcome = (d: { statusCode: number | null; ok: boolean; error: string | null }) => [
          d.statusCode,
          d.ok,
          d.error,
        ];

        const reached = await send(`http://receiver.test:${plain.port}/h`);
        assert.deepEqual(outcome(reached), [200, true, null]);
        assert.deepEqual(plain.hosts, [`receiver.test:${plain.port}`], "Host is the URL's name");
        assert.deepEqual(dns.asked, ["receiver.test"]);

        const secure = await send(`https://hook.test:${tls.port}/h`);
        assert.deepEqual(outcome(secure), [201, true, null]);
        assert.deepEqual(tls.hosts, [`hook.test:${tls.port}`]);
        const wrongName = await send(`https://other.test:${tls.port}/h`);
        assert.deepEqual(
          outcome(wrongName),
          [null, false, "TLS error"],
          "the certificate is checked against the name, not the address",
        );

        assert.deepEqual(
          outcome(await send(`http://lan.test:${plain.port}/h`)),
          [null, false, "refused: not a public address"],
          "the demo reaches its own machine, not the network around it",
        );
        assert.deepEqual(
          outcome(await send(`http://receiver.test:${redirect.port}/h`)),
          [307, false, "HTTP 307 (redirect not followed)"],
        );
        assert.equal(plain.hosts.length, 1, "the redirect's target was not asked");
        assert.deepEqual(
          outcome(await send(`http://receiver.test:${failing.port}/h`)),
          [500, false, "HTTP 500"],
        );
        assert.deepEqual(
          outcome(await send(`http://receiver.test:${closedPort}/h`)),
          [null, false, "cannot connect"],
        );
        assert.deepEqual(
          outcome(await send(`http://receiver.test:${(banner.addr as Deno.NetAddr).port}/h`)),
          [null, false, "invalid HTTP answer"],
        );
        assert.deepEqual(
          outcome(await send(`http://receiver.test:${hanging.port}/h`)),
          [null, false, "timeout"],
        );

        const log = JSON.stringify(await listDeliveries(db, wren._id));
        for (const words of ["you reached the inside", "hunter2", "OpenSSH", "ECONNREFUSED"]) {
          assert.ok(!log.includes(words), `the delivery log does not show "${words}"`);
        }
        const stored = await db.selectFrom("webhook_deliveries").select("response_excerpt")
          .execute();
        assert.ok(stored.every((r) => r.response_excerpt === ""), "no reply is stored");
      });
    } finally {
      banner.close();
      release();
      for (const r of [plain, tls, redirect, failing, hanging]) await r.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[webhooks:${backend}] one resend per event waits; a failed resend is retried only when none waits`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const wren = await createTestReseller(db, {
          name: "Wren",
          email: "wren@test.example",
          password: "long enough password",
          balanceCents: 1000,
        });
        const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = (closed.addr as Deno.NetAddr).port;
        closed.close();
        const delivery = await deliverOnce(db, wren._id, `http://127.0.0.1:${port}/h`, {
          retryDelaysSec: [],
          timeoutMs: 1000,
          mode: "demo",
        });
        const pendingResends = () =>
          db.selectFrom("jobs").select(["id", "payload"]).where("kind", "=", WEBHOOK_DELIVER_JOB)
            .where("done_at", "is", null).where("failed_at", "is", null).execute()
            .then((jobs) => jobs.filter((j) => (j.payload as { retry: number }).retry === -1));
        const queued = new ConflictError(
          "This event is already queued to be sent again; refresh to see its answer",
        );

        await resendDelivery(db, wren._id, delivery.id);
        await assert.rejects(resendDelivery(db, wren._id, delivery.id), queued);
        const [first] = await pendingResends();
        // The runner gives up on it (its last attempt threw): it no longer waits.
        await db.updateTable("jobs").set({ failed_at: new Date() }).where("id", "=", first.id)
          .execute();
        await resendDelivery(db, wren._id, delivery.id);
        const actor = { type: "cli" as const, name: "ops" };
        await assert.rejects(
          retryFailedJobAsOperator(db, { id: first.id, actor }),
          new ConflictError("A resend of this event is already queued"),
        );
        const [second] = await pendingResends();
        await db.updateTable("jobs").set({ done_at: new Date() }).where("id", "=", second.id)
          .execute();
        await retryFailedJobAsOperator(db, { id: first.id, actor });
        assert.deepEqual((await pendingResends()).map((j) => j.id), [first.id]);
      });
    } finally {
      await tdb.drop();
    }
  },
});
