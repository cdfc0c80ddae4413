import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import type { Db } from "../../src/db/client.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import { placeResellerOrder } from "../../src/domain/orders/place.ts";
import { sendOrderToSupplier } from "../../src/domain/orders/fulfil.ts";
import { checkInvariants, type InvariantViolation } from "../../src/domain/ledger/invariants.ts";
import { PAYMENT_RECEIVED } from "../../src/domain/payments/consumer-states.ts";
import type { SupplierReferenceCount } from "../../src/integrations/simulator-counts.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { centsToDollarString } from "../../src/domain/money.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

class RolledBack extends Error {}

/** Plants a violation in a transaction, returns what the check finds there, and rolls back. */
async function plant(
  db: Db,
  change: (trx: Db) => Promise<unknown>,
  counts?: SupplierReferenceCount[],
): Promise<InvariantViolation[]> {
  let found: InvariantViolation[] = [];
  await db.transaction().execute(async (trx) => {
    await change(trx);
    found = await checkInvariants(trx, { supplierCounts: counts });
    throw new RolledBack();
  }).catch((error) => {
    if (!(error instanceof RolledBack)) throw error;
  });
  return found;
}

/** The invariant names and problems found, for assertions that name the broken rule. */
const named = (violations: InvariantViolation[]) =>
  violations.map((v) => `${v.invariant}: ${v.problem}`);

Deno.test({
  name: `[invariants:${backend}] each invariant catches its planted violation`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        const suppliers = sim.suppliers;
        await launchGame(
          db,
          suppliers,
          LaunchGameSchema.parse({
            name: "PUBG Mobile",
            supplier: "elephant",
            supplierName: "pubgm",
            resellerMarkupAll: 5,
          }),
          { _id: null, name: "test" },
        );
        const reseller = await createTestReseller(db, {
          name: "Planter",
          email: "planter@test.example",
          password: "long enough password",
          balanceCents: 100_000,
          markup: { mlbb: 1, mlbb_special: 1, mlbb_global: 1 },
        });
        const game = await db.selectFrom("games").select("game_items")
          .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
        const denom = (game.game_items as { nameSupplier: string }[])[0].nameSupplier;
        const place = async () =>
          (await placeResellerOrder({ db, suppliers }, {
            game: { supplier: "elephant", supplierName: "pubgm" },
            resellerId: reseller._id,
            seesHiddenGames: false,
            denom,
            userid: "5551234",
            serverid: "",
            userName: "Player",
          })).body.order.id as string;
        const sent = await place();
        assert.equal(await sendOrderToSupplier(db, suppliers, sent), true);
        const unsent = await place();
        const counts = (): SupplierReferenceCount[] => [
          ...sim.elitedias.countsByReference().map((c) => ({
            ...c,
            supplier: "elephant" as const,
          })),
          ...sim.moogold.countsByReference().map((c) => ({ ...c, supplier: "monkey" as const })),
        ];

        await t.step("a sound system has no violation, supplier counts included", async () => {
          assert.deepEqual(counts().map((c) => [c.reference, c.requests, c.orders]), [
            [sent, 1, 1],
          ]);
          assert.deepEqual(await checkInvariants(db, { supplierCounts: counts() }), []);
        });

        await t.step("ledger: a balance that drifts from its history", async () => {
          const found = await plant(
            db,
            (trx) =>
              trx.updateTable("resellers").set({ balance_cents: 1 })
                .where("id", "=", reseller._id).execute(),
          );
          assert.ok(
            named(found).some((p) => /^ledger: balance \$0\.01 but history sums to \$/.test(p)),
          );
        });

        await t.step("ledger: history rows that do not chain, and a negative balance", async () => {
          const found = await plant(db, async (trx) => {
            // The schema refuses negative amounts too; the check must not rely on it.
            await sql`ALTER TABLE resellers DROP CONSTRAINT resellers_balance_not_negative`
              .execute(trx);
            await sql`ALTER TABLE balance_history DROP CONSTRAINT balance_history_not_negative`
              .execute(trx);
            await trx.insertInto("balance_history").values({
              reseller_id: reseller._id,
              type: "top_up",
              old_cents: -15,
              new_cents: -10,
              actor: "planted",
            }).execute();
            await trx.updateTable("resellers").set({ balance_cents: -10 })
              .where("id", "=", reseller._id).execute();
          });
          const problems = named(found).join("\n");
          assert.match(problems, /ledger: row \d+ starts at -\$0\.15, previous row ended at \$/);
          assert.match(problems, /ledger: negative balance -\$0\.10/);
        });

        await t.step("debited orders: failed without a refund, or open but refunded", async () => {
          const unrefunded = await plant(
            db,
            (trx) =>
              trx.updateTable("orders").set({ status: "error" }).where("id", "=", unsent)
                .execute(),
          );
          assert.deepEqual(named(unrefunded), ["debited orders: in error, refunded 0 times"]);
          const refundRow = (trx: Db) =>
            trx.insertInto("balance_history").values({
              reseller_id: reseller._id,
              type: "order_refunded",
              old_cents: 1,
              new_cents: 2,
              order_id: sent,
              actor: "planted",
            }).execute();
          const refundedOpen = await plant(db, refundRow);
          assert.ok(named(refundedOpen).includes("debited orders: pending but refunded"));
        });

        await t.step("consumer payment: paid with no verified payment event", async () => {
          const id = "CPLANTED000001";
          const paidOrder = (trx: Db, lastError: string | null, inReview = true) =>
            trx.insertInto("orders").values({
              id,
              buyer_type: "consumer",
              status: PAYMENT_RECEIVED,
              game: "Mobile Legends",
              item: "86 Diamonds",
              denom: "86",
              user_id: "22222222",
              amount_cents: 500,
              cost: "1",
              supplier: "elephant",
              payment_provider: "hitpay",
              last_error: lastError,
              review_since: inReview ? new Date() : null,
            }).execute();
          assert.deepEqual(named(await plant(db, (trx) => paidOrder(trx, null))), [
            `consumer payment: ${PAYMENT_RECEIVED} without a verified payment event`,
            "consumer delivery: paid, not delivered, no error shown and no job working on it",
          ]);
          const event = (trx: Db, key: string) =>
            trx.insertInto("payment_events").values({
              provider: "hitpay",
              event_key: key,
              raw_body: "{}",
              order_id: id,
              outcome: "paid",
            }).execute();
          assert.deepEqual(
            await plant(db, async (trx) => {
              await paidOrder(trx, "supplier timed out");
              await event(trx, "pay-1:completed");
            }),
            [],
          );
          assert.deepEqual(
            named(
              await plant(db, async (trx) => {
                await paidOrder(trx, "supplier timed out", false);
                await event(trx, "pay-1:completed");
              }),
            ),
            [
              `consumer outcome: ${PAYMENT_RECEIVED}: not delivered, not refunded, no job working ` +
              "on it and not in Needs review",
            ],
            "an error shown is not enough: nobody would act on it",
          );
          assert.deepEqual(
            named(
              await plant(db, async (trx) => {
                await paidOrder(trx, "supplier timed out");
                await event(trx, "pay-1:completed");
                await event(trx, "pay-2:completed");
              }),
            ),
            ["consumer payment: paid by 2 payment events"],
          );
        });

        await t.step(
          "consumer refund: refunded without the refund made, or made and not refunded",
          async () => {
            const id = "CPLANTED000002";
            const order = (trx: Db, status: "refunded" | "error") =>
              trx.insertInto("orders").values({
                id,
                buyer_type: "consumer",
                status,
                game: "Mobile Legends",
                item: "86 Diamonds",
                denom: "86",
                user_id: "22222222",
                amount_cents: 500,
                cost: "1",
                supplier: "elephant",
                payment_provider: "hitpay",
                payment_id: "pay-3",
                last_error: "EliteDias refused the top-up",
              }).execute();
            const paidLate = (trx: Db) =>
              trx.insertInto("payment_events").values({
                provider: "hitpay",
                event_key: "pay-3:completed",
                raw_body: "{}",
                order_id: id,
                outcome: "paid too late",
              }).execute();
            const refund = (trx: Db, status: "succeeded" | "refused") =>
              trx.insertInto("refunds").values({
                order_id: id,
                payment_id: "pay-3",
                amount_cents: 500,
                reason: "We could not deliver this top-up to your account.",
                requested_by: "system",
                status,
              }).execute();
            assert.deepEqual(
              await plant(db, async (trx) => {
                await order(trx, "refunded");
                await paidLate(trx);
                await refund(trx, "succeeded");
              }),
              [],
              "a late payment counts as the order's one payment; its refund was made",
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await order(trx, "refunded");
                  await paidLate(trx);
                  await refund(trx, "refused");
                }),
              ),
              ["consumer refund: refunded with 0 refunds made"],
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await order(trx, "error");
                  await paidLate(trx);
                  await refund(trx, "succeeded");
                }),
              ),
              [
                "consumer refund: error with 1 refunds made",
                "consumer outcome: error: not delivered, not refunded, no job working on it and " +
                "not in Needs review",
              ],
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await order(trx, "error");
                  await paidLate(trx);
                  await refund(trx, "refused");
                  await trx.updateTable("orders").set({ review_since: new Date() })
                    .where("id", "=", id).execute();
                }),
              ),
              [],
              "a refund HitPay refused waits in Needs review",
            );
          },
        );

        await t.step(
          "refund amount and delivered or refunded: never more back than paid, never for a " +
            "delivered order",
          async () => {
            const id = "CPLANTED000003";
            const order = (trx: Db, status: "refunded" | "successful") =>
              trx.insertInto("orders").values({
                id,
                buyer_type: "consumer",
                status,
                game: "Mobile Legends",
                item: "86 Diamonds",
                denom: "86",
                user_id: "22222222",
                amount_cents: 500,
                cost: "1",
                supplier: "elephant",
                payment_provider: "hitpay",
                payment_id: "pay-4",
              }).execute();
            const paid = (trx: Db) =>
              trx.insertInto("payment_events").values({
                provider: "hitpay",
                event_key: "pay-4:completed",
                raw_body: "{}",
                order_id: id,
                outcome: "paid",
              }).execute();
            const refund = (trx: Db, cents: number, status: "succeeded" | "refused") =>
              trx.insertInto("refunds").values({
                order_id: id,
                payment_id: "pay-4",
                amount_cents: cents,
                reason: "We could not deliver this top-up to your account.",
                requested_by: "system",
                status,
              }).execute();
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await order(trx, "refunded");
                  await paid(trx);
                  await refund(trx, 501, "succeeded");
                }),
              ),
              ["refund amount: refunds of $5.01 on a payment of $5.00"],
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await order(trx, "successful");
                  await paid(trx);
                  await refund(trx, 500, "succeeded");
                }),
              ),
              [
                "consumer refund: successful with 1 refunds made",
                "delivered or refunded: delivered, with a refund succeeded",
              ],
            );
            assert.deepEqual(
              await plant(db, async (trx) => {
                await order(trx, "successful");
                await paid(trx);
                await refund(trx, 500, "refused");
              }),
              [],
              "a refund HitPay refused gave nothing back",
            );
          },
        );

        await t.step(
          "one supplier at a time: a second supplier only after the first refused",
          async () => {
            const attempt = (trx: Db, supplier: string, outcome: string | null) =>
              trx.insertInto("supplier_attempts").values({
                order_id: unsent,
                supplier,
                outcome,
                answer: "",
                finished_at: outcome === null ? null : new Date(),
              }).execute();
            const routeTo = (trx: Db, supplier: string) =>
              trx.updateTable("orders").set({ supplier }).where("id", "=", unsent).execute();
            assert.deepEqual(
              await plant(db, async (trx) => {
                await attempt(trx, "elephant", "failed");
                await routeTo(trx, "monkey");
                await attempt(trx, "monkey", null);
              }),
              [],
              "refused at the first, sent to the next",
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await attempt(trx, "elephant", "uncertain");
                  await routeTo(trx, "monkey");
                  await attempt(trx, "monkey", "failed");
                }),
              ),
              ["one supplier at a time: at monkey while its attempt at elephant is uncertain"],
            );
            assert.deepEqual(
              named(
                await plant(db, async (trx) => {
                  await attempt(trx, "elephant", null);
                  await routeTo(trx, "monkey");
                }),
              ),
              ["one supplier at a time: at monkey while its attempt at elephant is still out"],
              "moved on while its create is out at the first",
            );
          },
        );

        await t.step("dashboard: daily totals that differ from a recount", async () => {
          const day = new Date("2026-01-01T16:00:00Z");
          assert.deepEqual(
            named(
              await plant(
                db,
                (trx) =>
                  sql`INSERT INTO dashboard_daily (day, reseller_id, package, orders, amount_cents,
                  cost) VALUES (${day}, ${reseller._id}, 'mlbb', 1, 500, 1)`.execute(trx),
              ),
            ),
            ["dashboard: daily totals 1 order(s), $5.00, cost 1; recount none"],
          );
          const { amount_cents } = await db.selectFrom("orders").select("amount_cents")
            .where("id", "=", unsent).executeTakeFirstOrThrow();
          assert.deepEqual(
            named(
              await plant(db, async (trx) => {
                await trx.updateTable("orders").set({ status: "successful" })
                  .where("id", "=", unsent).execute();
                await trx.deleteFrom("dashboard_changes").execute();
              }),
            ),
            [`dashboard: daily totals none; recount 1 order(s), ${
              centsToDollarString(amount_cents)
            }, cost ${
              (await db.selectFrom("orders").select("cost").where("id", "=", unsent)
                .executeTakeFirstOrThrow()).cost
            }`],
          );
          assert.deepEqual(
            await plant(
              db,
              (trx) =>
                trx.updateTable("orders").set({ status: "successful" }).where("id", "=", unsent)
                  .execute(),
            ),
            [],
            "the line the delivery appended counts at once",
          );
        });

        await t.step(
          "supplier sends: one order twice, at the wrong supplier, unnamed",
          async () => {
            const twice = [{
              supplier: "elephant" as const,
              reference: sent,
              requests: 2,
              orders: 2,
            }];
            assert.deepEqual(named(await plant(db, async () => {}, twice)), [
              "supplier sends: exists 2 times at the suppliers",
            ]);
            const both = [...counts(), {
              supplier: "monkey" as const,
              reference: sent,
              requests: 1,
              orders: 1,
            }];
            assert.deepEqual(named(await plant(db, async () => {}, both)), [
              "supplier sends: exists 2 times at the suppliers",
            ]);
            const elsewhere = [{
              supplier: "monkey" as const,
              reference: sent,
              requests: 1,
              orders: 1,
            }];
            assert.deepEqual(named(await plant(db, async () => {}, elsewhere)), [
              "supplier sends: sent to monkey, not elephant",
            ]);
            const anonymous = [{
              supplier: "monkey" as const,
              reference: "",
              requests: 1,
              orders: 1,
            }];
            assert.deepEqual(named(await plant(db, async () => {}, anonymous)), [
              "supplier sends: 1 supplier orders without our reference",
            ]);
            const retried = [{ ...counts()[0], requests: 3 }];
            assert.deepEqual(
              await plant(db, async () => {}, retried),
              [],
              "a create repeated under one reference made one order: allowed",
            );
          },
        );
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});
