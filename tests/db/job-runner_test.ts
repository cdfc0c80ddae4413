import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { launchPubgMobile, pubgOrderInput } from "../helpers/orders.ts";
import type { Db } from "../../src/db/client.ts";
import {
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
  SUPPLIER_STATUS_JOB,
} from "../../src/domain/orders/place.ts";
import { mailJobHandlers, SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { listReviewQueue } from "../../src/domain/orders/review-queue.ts";
import {
  listRetryableFailedJobs,
  retryFailedJobAsOperator,
} from "../../src/domain/admin/failed-jobs.ts";
import { orderJobHandlers } from "../../src/domain/orders/jobs.ts";
import { backoffSeconds, createJobRunner, queueJob } from "../../src/domain/jobs.ts";
import { enqueueJob } from "../../src/db/repositories/jobs.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import {
  setWebhookUrl,
  WEBHOOK_DELIVER_JOB,
  webhookJobHandlers,
} from "../../src/domain/resellers/webhooks.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { resolvePublicOrigin } from "../../src/config.ts";
import { DELIVERED, PAYMENT_RECEIVED } from "../../src/domain/payments/consumer-states.ts";

const backend = testBackend();
const box = createSecretBox("a test key of at least thirty-two characters");

/** Polls `check` until it holds; fails after about a minute of never holding. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  assert.fail(`never happened: ${what}`);
}

async function statusOf(db: Db, orderId: string): Promise<string> {
  return (await db.selectFrom("orders").select("status").where("id", "=", orderId)
    .executeTakeFirstOrThrow()).status;
}

async function deliveriesOf(db: Db, resellerId: string): Promise<(number | null)[]> {
  return (await db.selectFrom("webhook_deliveries").select("status_code")
    .where("reseller_id", "=", resellerId).execute()).map((d) => d.status_code);
}

Deno.test({
  name:
    `[job runner:${backend}] a webhook receiver that never answers holds up no supplier order and no other reseller's webhook`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    // One receiver that takes each request and never answers (until the test ends), one that
    // answers at once.
    const hung: Request[] = [];
    let release = () => {};
    const released = new Promise<void>((ok) => release = ok);
    const hanging = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      hung.push(req);
      await released;
      return new Response("late");
    });
    const quickBodies: string[] = [];
    const quick = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      quickBodies.push(await req.text());
      return new Response("ok");
    });
    try {
      await withHandle(tdb, async (db) => {
        await launchPubgMobile(db, sim.suppliers);
        const game = await db.selectFrom("games").select("game_items")
          .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
        const denom = (game.game_items as GameItemDto[])[0].nameSupplier;
        const reseller = async (name: string, port: number) => {
          const r = await createTestReseller(db, {
            name,
            email: `${name.toLowerCase()}@test.example`,
            password: "long enough password",
            balanceCents: 10_000,
          });
          await setWebhookUrl(
            db,
            box,
            { resellerId: r._id, name },
            `http://127.0.0.1:${port}/hook`,
            "demo",
          );
          return r._id;
        };
        const slowShop = await reseller("Slow", hanging.addr.port);
        const quickShop = await reseller("Quick", quick.addr.port);
        const order = async (resellerId: string) =>
          (await placeResellerOrder(
            { db, suppliers: sim.suppliers },
            pubgOrderInput(resellerId, denom),
          ))
            .body.order.id;

        const runner = createJobRunner(db, {
          ...orderJobHandlers(db, () => sim.suppliers),
          // Longer than the test may wait: the hung delivery stays in flight throughout.
          ...webhookJobHandlers(db, () => Promise.resolve(box), {
            retryDelaysSec: [60],
            timeoutMs: 300_000,
            mode: "demo",
          }),
        }, { worker: "test", intervalMs: 50, log: () => {} });
        runner.start();
        try {
          const slowOrder = await order(slowShop);
          runner.kick();
          await until(
            "the slow shop's order.successful reaches its receiver",
            () => hung.length === 1,
          );
          assert.equal(await statusOf(db, slowOrder), "successful");

          const quickOrder = await order(quickShop);
          runner.kick();
          await until(
            "the quick shop's order is successful",
            async () => await statusOf(db, quickOrder) === "successful",
          );
          await until(
            "the quick shop's webhook is delivered",
            async () => (await deliveriesOf(db, quickShop)).length === 1,
          );
          assert.deepEqual(await deliveriesOf(db, quickShop), [200]);
          assert.equal(JSON.parse(quickBodies[0]).data.order.id, quickOrder);

          assert.equal(hung.length, 1, "the slow receiver still holds its one request");
          assert.deepEqual(
            await deliveriesOf(db, slowShop),
            [],
            "the slow delivery is still in flight, not given up or retried",
          );
        } finally {
          // The hung delivery ends before the database handle closes.
          release();
          await runner.stop();
        }
      });
    } finally {
      release();
      await hanging.shutdown();
      await quick.shutdown();
      sim.close();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[job runner:${backend}] stop waits for a claim under way and the jobs it claims, so nothing runs after it`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await enqueueJob(db, { kind: "probe", payload: { n: 1 } });
        await enqueueJob(db, { kind: "probe", payload: { n: 2 } });
        const finished: number[] = [];
        const runner = createJobRunner(db, {
          probe: async (payload) => {
            await new Promise((ok) => setTimeout(ok, 50));
            finished.push(payload.n as number);
            return true;
          },
        }, { worker: "stop-test" });
        // start() begins a claim at once; stopping while it is under way must wait for it and
        // for the jobs it hands out (a shutdown then closes the database under nothing). On
        // PostgreSQL the claim is still on the wire here; PGlite answers it within the tick.
        runner.start();
        await new Promise((ok) => setTimeout(ok, 0));
        await runner.stop();
        const atStop = [...finished].sort();
        const done = await db.selectFrom("jobs").select("done_at").execute();
        assert.deepEqual(atStop, [1, 2]);
        assert.ok(done.every((j) => j.done_at !== null), "both jobs are marked done by then");
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[job runner:${backend}] a job that names when to run again is released to run then, bounded`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        await enqueueJob(db, { kind: "probe", payload: {} });
        const asked = new Date(Date.now() + 30_000);
        const runner = createJobRunner(db, { probe: () => Promise.resolve(asked) }, {
          worker: "asked-test",
        });
        assert.equal(await runner.runOnce("probe"), 1);
        const job = await db.selectFrom("jobs").select(["run_at", "done_at", "last_error"])
          .executeTakeFirstOrThrow();
        assert.equal(job.done_at, null);
        assert.equal(new Date(job.run_at).getTime(), asked.getTime());
        assert.match(job.last_error ?? "", /asked to run again/);
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name: `[job runner:${backend}] a kick for one kind claims that kind's jobs and leaves the others`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const ran: string[] = [];
        const record = (kind: string) => () => {
          ran.push(kind);
          return Promise.resolve(true);
        };
        // A minute between ticks: within the test a lane claims only when kicked.
        const runner = createJobRunner(db, { mail: record("mail"), supplier: record("supplier") }, {
          worker: "kick-test",
          intervalMs: 60_000,
        });
        // Not due when start() claims, so those claims find nothing however slow the machine;
        // due once they are over (they are sent at once, before this UPDATE).
        const later = new Date(Date.now() + 3_600_000);
        await enqueueJob(db, { kind: "mail", payload: {}, runAt: later });
        await enqueueJob(db, { kind: "supplier", payload: {}, runAt: later });
        runner.start();
        try {
          await new Promise((ok) => setTimeout(ok, 1000));
          await db.updateTable("jobs").set({ run_at: new Date() }).execute();
          runner.kick("supplier");
          await until("the supplier job runs", () => ran.includes("supplier"));
          await new Promise((ok) => setTimeout(ok, 300));
          assert.deepEqual(ran, ["supplier"], "the mail lane was not asked to claim");
          runner.kick();
          await until("the mail job runs", () => ran.includes("mail"));
        } finally {
          await runner.stop();
        }
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[job runner:${backend}] a job queued for later, and a retry, run when due, not at the lane's next poll`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const ran: { n: number; at: number }[] = [];
        // A minute between polls: within the test a lane claims only when woken or kicked.
        const runner = createJobRunner(db, {
          later: (payload) => {
            ran.push({ n: payload.n as number, at: Date.now() });
            // The second job fails its first attempt: its retry is queued 2 s ahead.
            return Promise.resolve(payload.n !== 2 || ran.filter((r) => r.n === 2).length > 1);
          },
        }, { worker: "wake-test", intervalMs: 60_000 });
        runner.start();
        try {
          // The start's claims find nothing due however slow the machine.
          await new Promise((ok) => setTimeout(ok, 500));
          const dueAt = Date.now() + 1500;
          await queueJob(db, "later", { n: 1 }, new Date(dueAt));
          await until("the job queued for later runs", () => ran.some((r) => r.n === 1));
          const first = ran.find((r) => r.n === 1)!.at;
          assert.ok(first >= dueAt, "not before its time");
          assert.ok(first - dueAt < 30_000, `ran ${first - dueAt} ms after its time`);

          await queueJob(db, "later", { n: 2 });
          runner.kick("later");
          await until("the retry runs", () => ran.filter((r) => r.n === 2).length === 2);
          const [attempt, retry] = ran.filter((r) => r.n === 2).map((r) => r.at);
          assert.ok(retry - attempt >= backoffSeconds(1) * 1000, "the retry waits its backoff");
          assert.ok(retry - attempt < 30_000, `the retry ran ${retry - attempt} ms after`);
        } finally {
          await runner.stop();
        }
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[job runner:${backend}] every job kind stops after its attempt limit: order jobs go to Needs review, others to the failed-jobs list an admin retries`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        await launchPubgMobile(db, sim.suppliers);
        const game = await db.selectFrom("games").select("game_items")
          .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
        const reseller = await createTestReseller(db, {
          name: "Limits",
          email: "limits@test.example",
          password: "long enough password",
          balanceCents: 100_000,
          markup: { pubgm: 5 },
        });
        const denom = (game.game_items as GameItemDto[])[0].nameSupplier;
        const orderId = async () =>
          (await placeResellerOrder(
            { db, suppliers: sim.suppliers },
            pubgOrderInput(reseller._id, denom),
          )).body.order.id;
        // Every kind the server runs, each attempt failing; the kinds keep what they do when a
        // job has used its last attempt.
        const real = {
          ...orderJobHandlers(db, () => sim.suppliers),
          ...mailJobHandlers(db, () => {
            throw new Error("no mailer: every attempt fails before it");
          }),
          ...webhookJobHandlers(db, () => Promise.resolve(box), {
            retryDelaysSec: [],
            timeoutMs: 1000,
            mode: "demo",
          }),
        };
        const failing = Object.fromEntries(
          Object.entries(real).map(([kind, handler]) => [
            kind,
            typeof handler === "function"
              ? () => Promise.reject(new Error(`${kind} down`))
              : { ...handler, run: () => Promise.reject(new Error(`${kind} down`)) },
          ]),
        );
        // The placement queued one supplier create job; the other kinds get one job each.
        const created = await orderId();
        const checked = await orderId();
        await db.deleteFrom("jobs").execute();
        await enqueueJob(db, { kind: SUPPLIER_CREATE_JOB, payload: { orderId: created } });
        await enqueueJob(db, { kind: SUPPLIER_STATUS_JOB, payload: { orderId: checked } });
        await enqueueJob(db, { kind: SEND_MAIL_JOB, payload: { to: "someone@test.example" } });
        await enqueueJob(db, {
          kind: WEBHOOK_DELIVER_JOB,
          payload: { eventId: crypto.randomUUID(), retry: 0 },
        });
        await db.updateTable("jobs").set({ max_attempts: 3 }).execute();
        const runner = createJobRunner(db, failing, { worker: "limits", log: () => {} });
        const runs: number[] = [];
        for (let pass = 0; pass < 5; pass++) {
          await db.updateTable("jobs").set({ run_at: new Date() }).execute();
          runs.push(await runner.runOnce());
        }
        assert.deepEqual(runs, [4, 4, 4, 0, 0], "three attempts each, then none");
        const jobs = await db.selectFrom("jobs").select(["kind", "attempts", "failed_at"])
          .orderBy("id").execute();
        assert.ok(jobs.every((j) => j.attempts === 3 && j.failed_at !== null));
        const review = (await listReviewQueue(db)).map((o) => o.id).sort();
        assert.deepEqual(review, [created, checked].sort(), "both orders wait for an operator");
        const failed = await listRetryableFailedJobs(db);
        assert.deepEqual(failed.map((j) => j.kind).sort(), [SEND_MAIL_JOB, WEBHOOK_DELIVER_JOB]);
        assert.match(failed[0].lastError, /down/);

        const mail = failed.find((j) => j.kind === SEND_MAIL_JOB)!;
        await retryFailedJobAsOperator(db, { id: mail.id, actor: { type: "cli", name: "ops" } });
        assert.equal(await runner.runOnce(), 1, "the retried job runs again");
        await assert.rejects(
          retryFailedJobAsOperator(db, {
            id: jobs.length + 1000,
            actor: { type: "cli", name: "ops" },
          }),
          /No failed job/,
        );
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[job runner:${backend}] order jobs that still carry the site's URL run as before, links on the resolved origin`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    resolvePublicOrigin({ publicUrl: "https://shop.example.com" }, "http://127.0.0.1:1");
    try {
      await withHandle(tdb, async (db) => {
        await launchPubgMobile(db, sim.suppliers);
        const game = await db.selectFrom("games").select(["id", "game_items"])
          .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
        const item = (game.game_items as GameItemDto[])[0];
        const orderId = "CQUEUEDWITHURL";
        await db.insertInto("orders").values({
          id: orderId,
          buyer_type: "consumer",
          status: PAYMENT_RECEIVED,
          consumer_name: "Ana Buyer",
          consumer_email: "ana@example.com",
          game_id: game.id,
          game: "PUBG Mobile",
          package_ed_name: "pubgm",
          denom: item.nameSupplier,
          item: item.nameSupplier,
          user_id: "5551234",
          server_id: "",
          user_name: "Player",
          amount_cents: 500,
          cost: String(item.cost),
          supplier: "elephant",
          payment_provider: "manual",
        }).execute();
        // Jobs a running shop queued with the site's base URL in their payload are still in its
        // database when it upgrades: they must run, and the URL they carry is not used.
        const payload = { orderId, siteUrl: "https://old.example" };
        await enqueueJob(db, { kind: SUPPLIER_CREATE_JOB, payload });
        await enqueueJob(db, { kind: SUPPLIER_STATUS_JOB, payload });
        const runner = createJobRunner(db, orderJobHandlers(db, () => sim.suppliers), {
          worker: "queued-payload-test",
          log: () => {},
        });
        await until("the order is delivered", async () => {
          await runner.runOnce(SUPPLIER_CREATE_JOB);
          await runner.runOnce(SUPPLIER_STATUS_JOB);
          return await statusOf(db, orderId) === DELIVERED;
        });
        const jobs = await db.selectFrom("jobs").select(["payload", "done_at", "failed_at"])
          .where("kind", "in", [SUPPLIER_CREATE_JOB, SUPPLIER_STATUS_JOB]).orderBy("id").execute();
        assert.ok(jobs[0].done_at !== null, "the queued create job ran to its end");
        assert.ok(jobs.every((j) => j.failed_at === null), JSON.stringify(jobs));
        assert.ok(jobs.length > 2, "the create job queued the order's status check");
        for (const queued of jobs.slice(2)) assert.deepEqual(queued.payload, { orderId });
        const mails = await db.selectFrom("jobs").select("payload")
          .where("kind", "=", SEND_MAIL_JOB).execute();
        assert.equal(mails.length, 1, "the delivered receipt");
        const mail = JSON.stringify(mails[0].payload);
        assert.ok(mail.includes(`https://shop.example.com/consumers/order?order=${orderId}`), mail);
        assert.ok(!mail.includes("old.example"), mail);
      });
    } finally {
      sim.close();
      await tdb.drop();
    }
  },
});
