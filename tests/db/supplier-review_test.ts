import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { launchPubgMobile, pubgOrderInput } from "../helpers/orders.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import { placeResellerOrder } from "../../src/domain/orders/place.ts";
import { refreshOrder, sendAndWatch, sendOrderToSupplier } from "../../src/domain/orders/fulfil.ts";
import { listReviewQueue, resolveReview } from "../../src/domain/orders/review-queue.ts";
import { checkLedger } from "../../src/domain/ledger/ledger.ts";
import { ConflictError } from "../../src/domain/errors.ts";
import { computeResellerPrice } from "../../src/domain/catalogue/pricing.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";
import { SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { SUPPLIER_CREATE_JOB } from "../../src/domain/orders/place.ts";
import { insertAdmin } from "../../src/db/repositories/admins.ts";
import {
  finishSupplierAttempt,
  listSupplierAttempts,
  readOrderAndStartAttempt,
  startSupplierAttempt,
} from "../../src/db/repositories/supplier-attempts.ts";
import { PAYMENT_RECEIVED } from "../../src/domain/payments/consumer-states.ts";
import { refundResellerOrderIn } from "../../src/domain/orders/fulfil.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };
const TOPUP = "/ed/elitedias_reseller_topup_api";
const MG_CREATE = "/mg/order/create_order";
/** Where orders wait to be sent, as the job runner passes it. */
const WAITING = { reseller: "new", consumer: PAYMENT_RECEIVED };
const actor = { type: "admin" as const, id: "00000000-0000-0000-0000-000000000001", name: "Ops" };

async function balanceOf(db: Db, id: string): Promise<number> {
  const r = await db.selectFrom("resellers").select("balance_cents").where("id", "=", id)
    .executeTakeFirstOrThrow();
  return r.balance_cents;
}

async function orderRow(db: Db, id: string): Promise<OrderRow> {
  return await db.selectFrom("orders").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function pubgCents(db: Db): Promise<{ denom: string; cents: number }> {
  const game = await db.selectFrom("games").select("game_items")
    .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
  const item = (game.game_items as GameItemDto[])[0];
  return {
    denom: item.nameSupplier,
    cents: computeResellerPrice(item, { markupPercent: 5, disableDiscounts: false }),
  };
}

async function mailsAbout(db: Db, orderId: string): Promise<number> {
  const jobs = await db.selectFrom("jobs").select("payload").where("kind", "=", SEND_MAIL_JOB)
    .execute();
  return jobs.filter((j) => String(j.payload.subject) === `Order ${orderId} needs review`).length;
}

Deno.test({
  name:
    `[orders:${backend}] no top-up is sent twice: uncertain creates are asked about or reviewed`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    const suppliers = sim.suppliers;
    try {
      await withHandle(tdb, async (db) => {
        const ctx = { db, suppliers };
        await insertAdmin(db, {
          name: "Ops",
          email: "ops@test.example",
          password_hash: "x",
          rank: "superadmin",
          created_by: "test",
        });
        await launchPubgMobile(db, suppliers);
        const { denom, cents } = await pubgCents(db);
        const placeOne = async (name: string) => {
          const r = await createTestReseller(db, {
            name,
            email: `${name.toLowerCase()}@test.example`,
            password: "long enough password",
            balanceCents: 5 * cents,
            markup: { pubgm: 5 },
          });
          const placed = await placeResellerOrder(ctx, pubgOrderInput(r._id, denom));
          return { reseller: r._id, id: placed.body.order.id };
        };

        await t.step(
          "an EliteDias create that times out is sent exactly once and lands in Needs review",
          async () => {
            const { reseller, id } = await placeOne("Patient");
            const before = sim.requestsTo(TOPUP);
            sim.elitedias.forceNext("timeout", 1, "elitedias_reseller_topup_api");
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true, "the job ends");
            // Everything that used to send it again: the job, a refresh, both at once.
            await Promise.all([
              refreshOrder(db, suppliers, id),
              sendOrderToSupplier(db, suppliers, id),
              sendOrderToSupplier(db, suppliers, id),
            ]);
            assert.equal(sim.requestsTo(TOPUP) - before, 1, "EliteDias got one request");
            const row = await orderRow(db, id);
            assert.equal(row.status, "new", "the reseller still sees it pending");
            assert.ok(row.review_since);
            assert.equal(await balanceOf(db, reseller), 4 * cents, "no money moved");
            assert.equal(await mailsAbout(db, id), 1, "admins are told once");
            const mail = await db.selectFrom("jobs").select("payload")
              .where("kind", "=", SEND_MAIL_JOB).orderBy("id", "desc").executeTakeFirstOrThrow();
            for (const body of [mail.payload.text, mail.payload.html]) {
              assert.match(String(body), /\(PUBG Mobile, .+, EliteDias\) needs an operator/);
              assert.doesNotMatch(String(body), /elephant/, "the supplier's own name, not ours");
            }
            const queue = await listReviewQueue(db);
            const listed = queue.find((o) => o.id === id);
            assert.ok(listed, "listed in Needs review");
            assert.equal(listed.supplier, "elephant");
            assert.equal(listed.attempts.length, 1);
            assert.equal(listed.attempts[0].outcome, "uncertain");
            assert.match(listed.attempts[0].answer, /timeout/);
          },
        );

        await t.step(
          "an EliteDias 429 on a top-up creates nothing: the order waits and the job runs again when EliteDias asked",
          async () => {
            const { reseller, id } = await placeOne("Throttled");
            const before = sim.requestsTo(TOPUP);
            sim.elitedias.forceNext("throttled", 1, "elitedias_reseller_topup_api");
            const asked = Date.now();
            const outcome = await sendAndWatch(db, suppliers, id);
            assert.ok(outcome instanceof Date, `the job runs again later, not ${outcome}`);
            const wait = outcome.getTime() - asked;
            assert.ok(wait >= 2_000 && wait < 4_000, `after Retry-After's 2 s (${wait} ms)`);
            const row = await orderRow(db, id);
            assert.equal(row.status, "new", "still waiting to be sent");
            assert.equal(row.review_since, null, "not for an operator");
            assert.match(row.last_error ?? "", /429/);
            assert.equal(
              await balanceOf(db, reseller),
              4 * cents,
              "neither refunded nor charged twice",
            );
            assert.deepEqual(
              (await listSupplierAttempts(db, [id])).map((a) => a.outcome),
              ["not at supplier"],
            );
            assert.equal(await sendAndWatch(db, suppliers, id), true, "the retry goes out");
            assert.equal(sim.requestsTo(TOPUP) - before, 2);
            assert.equal(sim.elitedias.listOrders().filter((o) => o.reference === id).length, 1);
            assert.equal((await orderRow(db, id)).status, "pending");
          },
        );

        await t.step(
          "a refresh in the moment the job applies EliteDias' acceptance sends nothing again",
          async () => {
            const { id } = await placeOne("Quick");
            // The job's create was accepted and its attempt closed, and the order not yet updated
            // with the supplier's id: the order still reads as not sent.
            const attempt = await startSupplierAttempt(db, id, WAITING, "elephant");
            assert.ok(attempt !== undefined);
            await finishSupplierAttempt(db, attempt, "accepted", "supplier order ED1 (pending)");
            const before = sim.requestsTo(TOPUP);
            await Promise.all([
              refreshOrder(db, suppliers, id),
              sendOrderToSupplier(db, suppliers, id),
            ]);
            assert.equal(sim.requestsTo(TOPUP) - before, 0, "EliteDias got no second request");
            const row = await orderRow(db, id);
            assert.equal(row.review_since, null, "nothing for an operator");
            assert.equal(row.status, "new");
          },
        );

        await t.step(
          "an EliteDias top-up made but its answer lost: one order there, delivered by its id",
          async () => {
            const { reseller, id } = await placeOne("Lost");
            sim.elitedias.forceNext("lost", 1, "elitedias_reseller_topup_api");
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
            await refreshOrder(db, suppliers, id);
            const there = sim.elitedias.listOrders().filter((o) => o.reference === id);
            assert.equal(there.length, 1, "EliteDias holds it once");
            assert.ok((await orderRow(db, id)).review_since);
            const after = await resolveReview(db, {
              orderId: id,
              action: "delivered",
              supplierOrderId: there[0].orderId,
              actor,
            });
            assert.equal(after.status, "successful");
            assert.equal(await balanceOf(db, reseller), 4 * cents, "charged once");
          },
        );

        await t.step("resolving by refund restores the balance once, audited", async () => {
          const { reseller, id } = await placeOne("Refunded");
          sim.elitedias.forceNext("malformed", 1, "elitedias_reseller_topup_api");
          await sendOrderToSupplier(db, suppliers, id);
          const results = await Promise.allSettled([
            resolveReview(db, { orderId: id, action: "refund", actor }),
            resolveReview(db, { orderId: id, action: "refund", actor }),
          ]);
          assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
          const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
          assert.ok(refused.reason instanceof ConflictError);
          assert.equal(await balanceOf(db, reseller), 5 * cents, "refunded once");
          const row = await orderRow(db, id);
          assert.equal(row.status, "error");
          assert.equal(row.review_since, null);
          assert.equal((await listReviewQueue(db)).some((o) => o.id === id), false);
          const audit = await db.selectFrom("audit_log").select(["action", "actor_name"])
            .where("target_id", "=", id).execute();
          assert.deepEqual(audit, [{ action: "order.review_refund", actor_name: "Ops" }]);
          assert.deepEqual(await checkLedger(db), []);
        });

        await t.step("marking delivered needs the supplier's order id and records it", async () => {
          const { reseller, id } = await placeOne("Delivered");
          sim.elitedias.forceNext("error", 1, "elitedias_reseller_topup_api");
          // A 5xx-like simulator error is the supplier's refusal: definitive, refunded at once.
          await sendOrderToSupplier(db, suppliers, id);
          assert.equal((await orderRow(db, id)).status, "error");
          assert.equal(await balanceOf(db, reseller), 5 * cents);

          const second = await placeOne("Delivered2");
          sim.elitedias.forceNext("timeout", 1, "elitedias_reseller_topup_api");
          await sendOrderToSupplier(db, suppliers, second.id);
          await assert.rejects(
            resolveReview(db, { orderId: second.id, action: "delivered", actor }),
            /supplier's order id/,
          );
          const after = await resolveReview(db, {
            orderId: second.id,
            action: "delivered",
            supplierOrderId: "ED-12345",
            actor,
          });
          assert.equal(after.status, "successful");
          assert.equal(after.supplier_order_id, "ED-12345");
          assert.equal(await balanceOf(db, second.reseller), 4 * cents, "paid, not refunded");
          const events = await db.selectFrom("webhook_events").select("type")
            .where("order_id", "=", second.id).execute();
          // No webhook configured for this reseller: nothing is queued, nothing breaks.
          assert.ok(events.every((e) => e.type === "order.successful"));
        });

        await t.step("send again queues one new create, which goes out once", async () => {
          const { id } = await placeOne("Resent");
          sim.elitedias.forceNext("timeout", 1, "elitedias_reseller_topup_api");
          await sendOrderToSupplier(db, suppliers, id);
          const before = sim.requestsTo(TOPUP);
          const createJobs = async () =>
            (await db.selectFrom("jobs").select("payload").where("kind", "=", SUPPLIER_CREATE_JOB)
              .execute()).filter((j) => j.payload.orderId === id).length;
          const jobsBefore = await createJobs();
          await resolveReview(db, { orderId: id, action: "resend", actor });
          assert.equal(await createJobs() - jobsBefore, 1);
          assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
          assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
          assert.equal(sim.requestsTo(TOPUP) - before, 1);
          const row = await orderRow(db, id);
          assert.equal(row.status, "pending");
          assert.equal(row.review_since, null);
          await assert.rejects(
            resolveReview(db, { orderId: id, action: "refund", actor }),
            ConflictError,
            "no longer in review",
          );
        });

        await t.step(
          "MooGold is asked by our reference before a create is sent again",
          async () => {
            await launchGame(
              db,
              suppliers,
              LaunchGameSchema.parse({
                name: "Genshin Impact",
                supplier: "monkey",
                supplierName: "Genshin Impact",
                supplierGameID: "3689112",
                gameItems: [{
                  id: "3689113",
                  nameSupplier: "Genshin Impact - 60 Genesis Crystals",
                  nameReseller: "60 Genesis Crystals",
                }],
                resellerMarkupAll: 5,
                requiresServerID: true,
              }),
              { _id: null, name: "test" },
            );
            const r = await createTestReseller(db, {
              name: "Traveller",
              email: "traveller@test.example",
              password: "long enough password",
              balanceCents: 1000,
            });
            const place = async () =>
              (await placeResellerOrder(ctx, {
                game: { supplier: "monkey", productId: "3689112" },
                resellerId: r._id,
                seesHiddenGames: false,
                denom: "Genshin Impact - 60 Genesis Crystals",
                userid: "800123456",
                serverid: "os_asia",
                userName: "",
              })).body.order.id;

            // No product detail (the labels MooGold keys the order's fields by): nothing goes out,
            // and the attempt says the order is not at MooGold, which makes way for the next.
            const lost = await place();
            const creates = sim.requestsTo(MG_CREATE);
            sim.moogold.forceNext("timeout", 1, "product/product_detail");
            assert.equal(await sendOrderToSupplier(db, suppliers, lost), false, "ask later");
            assert.equal(sim.requestsTo(MG_CREATE) - creates, 0);
            assert.deepEqual(
              (await listSupplierAttempts(db, [lost])).map((a) => [a.outcome, a.answer]),
              [["not at supplier", "not sent: MooGold product detail unavailable"]],
            );

            // The create never reached MooGold: the lookup says so, and it is sent once more.
            sim.moogold.forceNext("timeout", 1, "order/create_order");
            assert.equal(await sendOrderToSupplier(db, suppliers, lost), false, "ask later");
            assert.equal(await sendOrderToSupplier(db, suppliers, lost), true);
            assert.equal(sim.requestsTo(MG_CREATE) - creates, 2);
            assert.equal(
              sim.moogold.listOrders().filter((o) => o.partnerOrderId === lost).length,
              1,
            );
            assert.equal((await orderRow(db, lost)).status, "pending");

            // The create reached MooGold but its answer was lost: found by reference, not re-sent.
            const answered = await place();
            sim.moogold.forceNext("lost", 1, "order/create_order");
            const beforeLost = sim.requestsTo(MG_CREATE);
            assert.equal(await sendOrderToSupplier(db, suppliers, answered), false, "ask later");
            assert.equal(await sendOrderToSupplier(db, suppliers, answered), true);
            assert.equal(sim.requestsTo(MG_CREATE) - beforeLost, 1, "not sent again");
            const held = sim.moogold.listOrders().filter((o) => o.partnerOrderId === answered);
            assert.equal(held.length, 1);
            const found = await orderRow(db, answered);
            // MooGold's own order may have completed while its answer was held.
            assert.ok(["pending", "successful"].includes(found.status), found.status);
            assert.equal(found.supplier_order_id, String(held[0].orderId));
            assert.deepEqual(await checkLedger(db), []);
          },
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
    `[orders:${backend}] a refused create's refund and a refresh at that moment: no second send`,
  // Two connections at once, one held inside a transaction: PostgreSQL.
  ignore: backend !== "postgres",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        await launchPubgMobile(db, sim.suppliers);
        const { denom, cents } = await pubgCents(db);
        const r = await createTestReseller(db, {
          name: "Refused",
          email: "refused@test.example",
          password: "long enough password",
          balanceCents: 5 * cents,
          markup: { pubgm: 5 },
        });
        const placed = await placeResellerOrder(
          { db, suppliers: sim.suppliers },
          pubgOrderInput(r._id, denom),
        );
        const id = placed.body.order.id;
        const sent = await readOrderAndStartAttempt(db, { orderId: id, waiting: WAITING });
        assert.ok(sent?.attempt !== undefined, "the job's attempt");
        // EliteDias refused it: the job's transaction refunds the order, then closes the attempt
        // (failOrder). A refresh's clearance to send comes in before that transaction commits; it
        // began with the order still waiting and meets the attempt being closed.
        let refresh: ReturnType<typeof readOrderAndStartAttempt> | undefined;
        await db.transaction().execute(async (trx) => {
          assert.ok(await refundResellerOrderIn(trx, id, "EliteDias refused it"));
          await finishSupplierAttempt(trx, sent.attempt!, "failed", "EliteDias refused it");
          refresh = readOrderAndStartAttempt(db, { orderId: id, waiting: WAITING });
          await new Promise((resolve) => setTimeout(resolve, 200));
        });
        const cleared = await refresh!;
        assert.equal(cleared?.attempt, undefined, "the refresh is not cleared to send it again");
        assert.equal((await orderRow(db, id)).status, "error");
        assert.equal(await balanceOf(db, r._id), 5 * cents, "refunded once");
        assert.equal((await listSupplierAttempts(db, [id])).length, 1);
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});
