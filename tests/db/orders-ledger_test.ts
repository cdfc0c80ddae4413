import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { launchPubgMobile, pubgOrderInput } from "../helpers/orders.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import { createMobileLegendsGame } from "../../src/domain/catalogue/demo-catalogue.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import { type PlaceOrderInput, placeResellerOrder } from "../../src/domain/orders/place.ts";
import {
  refreshOrder,
  refundResellerOrder,
  sendOrderToSupplier,
} from "../../src/domain/orders/fulfil.ts";
import { checkLedger } from "../../src/domain/ledger/ledger.ts";
import { ConflictError, InsufficientBalanceError } from "../../src/domain/errors.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { computeResellerPrice } from "../../src/domain/catalogue/pricing.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { presentResellerOrder } from "../../src/domain/orders/present.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

async function newReseller(db: Db, name: string, balanceCents: number) {
  return await createTestReseller(db, {
    name,
    email: `${name.toLowerCase().replaceAll(" ", ".")}@test.example`,
    password: "long enough password",
    balanceCents,
    markup: { mlbb: 10, mlbb_special: 10, mlbb_global: 10, pubgm: 5 },
  });
}

/** A test reseller as the portal's route passes it: read with its session. */
function knownReseller(r: { _id: string; name: string }) {
  return { id: r._id, name: r.name, markup: { pubgm: 5 }, disable_discounts: false };
}

async function balanceOf(db: Db, id: string): Promise<number> {
  const r = await db.selectFrom("resellers").select("balance_cents").where("id", "=", id)
    .executeTakeFirstOrThrow();
  return r.balance_cents;
}

async function pubgPrice(db: Db): Promise<{ denom: string; cents: number }> {
  const game = await db.selectFrom("games").select("game_items").where(
    "supplier_name",
    "=",
    "pubgm",
  )
    .executeTakeFirstOrThrow();
  const item = (game.game_items as GameItemDto[])[0];
  return {
    denom: item.nameSupplier,
    cents: computeResellerPrice(item, { markupPercent: 5, disableDiscounts: false }),
  };
}

/**
 * Two app instances' handles and a third to hold rows with, on one new database where PUBG Mobile
 * is launched (`denom` its first item, `cents` its price at a 5 % markup).
 */
async function onTwoInstances(
  fn: (
    world: {
      first: Db;
      second: Db;
      locker: Db;
      sim: ReturnType<typeof startTestSuppliers>;
      denom: string;
      cents: number;
    },
  ) => Promise<void>,
): Promise<void> {
  const tdb = await createTestDatabase(backend);
  const sim = startTestSuppliers();
  const [first, second, locker] = [tdb.open(), tdb.open(), tdb.open()];
  try {
    await launchPubgMobile(first, sim.suppliers);
    await fn({ first, second, locker, sim, ...await pubgPrice(first) });
  } finally {
    await Promise.all([first.destroy(), second.destroy(), locker.destroy()]);
    await sim.close();
    await tdb.drop();
  }
}

/**
 * Holds the resellers' rows in a transaction of `locker`; `waited(n)` resolves once n statements
 * wait on a lock (failing after 10 s), `release()` ends the transaction.
 */
async function holdResellers(locker: Db, ids: string[]) {
  let release!: () => void, held!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const holds = new Promise<void>((resolve) => held = resolve);
  const holding = locker.transaction().execute(async (trx) => {
    await sql`SELECT 1 FROM resellers WHERE id IN (SELECT jsonb_array_elements_text(
      ${JSON.stringify(ids)}::text::jsonb)::uuid) FOR UPDATE`.execute(trx);
    held();
    await released;
  });
  await holds;
  return {
    async waited(n: number): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (let waiting = 0; waiting < n;) {
        if (Date.now() > deadline) {
          release();
          assert.fail(`${waiting} of the ${n} statements waited on a held row`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(locker);
        waiting = rows[0].n;
      }
    },
    async release(): Promise<void> {
      release();
      await holding;
    },
  };
}

Deno.test({
  name: `[ledger:${backend}] orders debit exactly, never overdraw, dedupe, refund once`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    const suppliers: Suppliers = sim.suppliers;
    try {
      await withHandle(tdb, async (db) => {
        const ctx = { db, suppliers };
        await createMobileLegendsGame(db, suppliers, { consumerMarkup: 8.8 });
        await launchPubgMobile(db, suppliers);
        const { denom, cents } = await pubgPrice(db);
        const order = (
          resellerId: string,
          extra: Partial<PlaceOrderInput> = {},
        ): PlaceOrderInput => ({ ...pubgOrderInput(resellerId, denom), ...extra });

        await t.step(
          "200 parallel orders on a balance covering exactly N: N succeed, balance exact",
          async () => {
            const n = 37;
            const r = await newReseller(db, "Racer", n * cents);
            const results = await Promise.allSettled(
              Array.from({ length: 200 }, () => placeResellerOrder(ctx, order(r._id))),
            );
            const ok = results.filter((x) => x.status === "fulfilled");
            const refused = results.filter((x) => x.status === "rejected");
            assert.equal(ok.length, n);
            assert.ok(
              refused.every((x) =>
                (x as PromiseRejectedResult).reason instanceof InsufficientBalanceError
              ),
            );
            assert.equal(await balanceOf(db, r._id), 0);
            const placed = await db.selectFrom("balance_history").select((eb) =>
              eb.fn.countAll<number>().as("c")
            )
              .where("reseller_id", "=", r._id).where("type", "=", "order_placed")
              .executeTakeFirstOrThrow();
            assert.equal(Number(placed.c), n);
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        // A reseller's placements that arrive together go out as one statement (one debit of
        // their sum); each must still get what it would have had on its own.
        const together = (
          r: Awaited<ReturnType<typeof newReseller>>,
          inputs: { denom?: string; key?: string }[],
        ) => {
          return Promise.allSettled(inputs.map(({ denom: d, key }) =>
            placeResellerOrder(
              ctx,
              { ...order(r._id, d ? { denom: d } : {}), knownReseller: knownReseller(r) },
              key,
            )
          ));
        };

        await t.step(
          "orders placed together take the balance one after the other, each with its balances",
          async () => {
            const start = 5 * cents + 5;
            const r = await newReseller(db, "Batcher", start);
            const results = await together(r, Array.from({ length: 8 }, () => ({})));
            const placed = results.flatMap((x) => x.status === "fulfilled" ? [x.value] : []);
            assert.equal(placed.length, 5);
            for (const x of results) {
              if (x.status === "rejected") assert.ok(x.reason instanceof InsufficientBalanceError);
            }
            const rows = await db.selectFrom("orders").selectAll().where("reseller_id", "=", r._id)
              .orderBy("old_balance_cents", "desc").execute();
            assert.deepEqual(
              rows.map((o) => [o.old_balance_cents, o.new_balance_cents]),
              Array.from({ length: 5 }, (_, i) => [start - i * cents, start - (i + 1) * cents]),
            );
            for (const { body, text } of placed) {
              const row = rows.find((o) => o.id === body.order.id)!;
              assert.equal(text, JSON.stringify({ order: presentResellerOrder(row) }));
            }
            assert.equal(await balanceOf(db, r._id), 5);
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "placed together, a dearer order the balance cannot cover is refused, a cheaper one is not",
          async () => {
            const game = await db.selectFrom("games").select("game_items")
              .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
            const items = game.game_items as GameItemDto[];
            const priced = items.map((item) => ({
              denom: item.nameSupplier,
              cents: computeResellerPrice(item, { markupPercent: 5, disableDiscounts: false }),
            })).sort((a, b) => a.cents - b.cents);
            const cheap = priced[0], dear = priced[priced.length - 1];
            assert.ok(dear.cents > 2 * cheap.cents, "the catalogue has a dear and a cheap item");
            const r = await newReseller(db, "Chooser", dear.cents - 1);
            const results = await together(r, [{ denom: dear.denom }, { denom: cheap.denom }]);
            assert.equal(results[0].status, "rejected");
            assert.ok(
              (results[0] as PromiseRejectedResult).reason instanceof InsufficientBalanceError,
            );
            assert.equal(results[1].status, "fulfilled");
            assert.equal(await balanceOf(db, r._id), dear.cents - 1 - cheap.cents);
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "keys repeated together: each key places one order and its repeats get its answer",
          async () => {
            const r = await newReseller(db, "Doubler", 100 * cents);
            const keys = ["a", "b", "c", "d", "e"];
            const results = await together(r, [...keys, ...keys].map((key) => ({ key })));
            const texts = results.map((x) => {
              assert.equal(x.status, "fulfilled");
              return (x as PromiseFulfilledResult<{ text: string }>).value.text;
            });
            assert.deepEqual(texts.slice(5), texts.slice(0, 5));
            assert.equal(new Set(texts).size, 5);
            assert.equal(await balanceOf(db, r._id), 95 * cents);
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "orders of several resellers placed together: each takes its own reseller's balance, " +
            "and a short balance refuses only its own reseller's orders",
          async () => {
            const rich = await newReseller(db, "Rich", 3 * cents + 1);
            const short = await newReseller(db, "Short", cents - 1);
            const some = await newReseller(db, "Some", 2 * cents);
            const placing = [rich, short, some, some, rich, some];
            const results = await Promise.allSettled(
              placing.map((r) =>
                placeResellerOrder(ctx, { ...order(r._id), knownReseller: knownReseller(r) })
              ),
            );
            assert.deepEqual(
              results.map((x) =>
                x.status === "fulfilled"
                  ? "placed"
                  : x.reason instanceof InsufficientBalanceError
                  ? "refused"
                  : String(x.reason)
              ),
              ["placed", "refused", "placed", "placed", "placed", "refused"],
            );
            assert.equal(await balanceOf(db, rich._id), cents + 1);
            assert.equal(await balanceOf(db, short._id), cents - 1);
            assert.equal(await balanceOf(db, some._id), 0);
            const rows = await db.selectFrom("orders").select(["reseller_id", "old_balance_cents"])
              .where("reseller_id", "in", [rich._id, some._id])
              .orderBy("reseller_id").orderBy("old_balance_cents", "desc").execute();
            assert.deepEqual(
              rows.map((o) => [o.reseller_id, o.old_balance_cents]),
              [
                [rich._id, 3 * cents + 1],
                [rich._id, 2 * cents + 1],
                [some._id, 2 * cents],
                [some._id, cents],
              ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
            );
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "an order, its 'order_placed' row and its supplier job are written together",
          async () => {
            // An odd cent, so the balances' dollars have digits to keep and zeros to drop.
            const start = 10 * cents + 5;
            const r = await newReseller(db, "Recorder", start);
            const { body, text } = await placeResellerOrder(ctx, order(r._id), "recorded");
            const row = await db.selectFrom("orders").selectAll()
              .where("id", "=", body.order.id).executeTakeFirstOrThrow();
            assert.equal(body.order.date, row.created_at.toISOString());
            assert.equal(row.old_balance_cents, start);
            assert.equal(row.new_balance_cents, start - cents);
            assert.equal(
              text,
              JSON.stringify({ order: presentResellerOrder(row) }),
              "the answer is the order as stored, written as the API writes it",
            );
            const history = await db.selectFrom("balance_history").selectAll()
              .where("reseller_id", "=", r._id).where("type", "=", "order_placed")
              .executeTakeFirstOrThrow();
            assert.equal(history.order_id, row.id);
            assert.equal(history.old_cents, start);
            assert.equal(history.new_cents, start - cents);
            assert.deepEqual(history.order_snapshot, {
              id: row.id,
              date: row.created_at.toISOString(),
              item: row.item,
              amount: cents / 100,
            });
            const jobs = await db.selectFrom("jobs").select("payload")
              .where("kind", "=", "order.supplier_create").execute();
            assert.equal(jobs.filter((j) => j.payload.orderId === row.id).length, 1);
          },
        );

        await t.step(
          "the same Idempotency-Key 50 times in parallel: one order, one debit, one answer",
          async () => {
            const r = await newReseller(db, "Repeater", 100 * cents);
            const results = await Promise.all(
              Array.from({ length: 50 }, () => placeResellerOrder(ctx, order(r._id), "key-123")),
            );
            for (const result of results) assert.equal(result.text, results[0].text);
            assert.deepEqual(
              results.filter((result) => result.kind === "placed").length,
              1,
              "one request placed it, the others repeat its answer",
            );
            assert.equal(await balanceOf(db, r._id), 99 * cents);
            const orders = await db.selectFrom("orders").select("id").where(
              "reseller_id",
              "=",
              r._id,
            ).execute();
            assert.equal(orders.length, 1);
            await assert.rejects(
              placeResellerOrder(ctx, order(r._id, { userid: "999" }), "key-123"),
              ConflictError,
              "the same key for a different order is refused",
            );
          },
        );

        await t.step(
          "the same key 20 times in parallel on a balance for one order: all get the first answer",
          async () => {
            const r = await newReseller(db, "Last Order", cents);
            const results = await Promise.all(
              Array.from({ length: 20 }, () => placeResellerOrder(ctx, order(r._id), "last-one")),
            );
            for (const result of results) assert.equal(result.text, results[0].text);
            assert.equal(results[0].body.order.reseller.newBalance, 0);
            assert.equal(await balanceOf(db, r._id), 0);
          },
        );

        await t.step(
          "a tampered amount is refused, and the server price is what gets charged",
          async () => {
            const r = await newReseller(db, "Tamperer", 10 * cents);
            await assert.rejects(
              placeResellerOrder(ctx, order(r._id, { clientAmount: 0.01 })),
              ConflictError,
            );
            assert.equal(await balanceOf(db, r._id), 10 * cents, "nothing charged");
            const placed = await placeResellerOrder(
              ctx,
              order(r._id, { clientAmount: cents / 100 }),
            );
            assert.equal(placed.body.order.amount, cents / 100);
            assert.equal(await balanceOf(db, r._id), 9 * cents);
          },
        );

        await t.step(
          "a game changed after an order, by any writer, prices the next order anew",
          async () => {
            const r = await newReseller(db, "Repriced", 10 * cents);
            await placeResellerOrder(ctx, order(r._id));
            assert.equal(await balanceOf(db, r._id), 9 * cents);
            // An operator's SQL, which no save of the app's (and no version) goes through.
            const setFirstCost = (cost: unknown) =>
              sql`UPDATE games SET game_items = jsonb_set(game_items, '{0,cost}', ${
                JSON.stringify(cost)
              }::text::jsonb) WHERE supplier_name = 'pubgm'`.execute(db);
            const before = await db.selectFrom("games").select("game_items")
              .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
            const item = (before.game_items as GameItemDto[])[0];
            const dearer = { ...item, cost: Number(item.cost) * 2 };
            await setFirstCost(dearer.cost);
            try {
              const placed = await placeResellerOrder(ctx, order(r._id));
              const newCents = computeResellerPrice(dearer, {
                markupPercent: 5,
                disableDiscounts: false,
              });
              assert.notEqual(newCents, cents);
              assert.equal(placed.body.order.amount, newCents / 100);
              assert.equal(await balanceOf(db, r._id), 9 * cents - newCents);
            } finally {
              await setFirstCost(item.cost);
            }
            await placeResellerOrder(ctx, order(r._id));
            assert.equal(
              await balanceOf(db, r._id),
              8 * cents -
                computeResellerPrice(dearer, { markupPercent: 5, disableDiscounts: false }),
              "priced at the restored cost again",
            );
          },
        );

        await t.step("a definitive supplier failure refunds exactly once", async () => {
          const r = await newReseller(db, "Unlucky", 5 * cents);
          const placed = await placeResellerOrder(ctx, order(r._id));
          sim.elitedias.rejectOrders();
          assert.equal(await sendOrderToSupplier(db, suppliers, placed.body.order.id), true);
          sim.elitedias.acceptOrders();
          const row = await db.selectFrom("orders").select("status").where(
            "id",
            "=",
            placed.body.order.id,
          )
            .executeTakeFirstOrThrow();
          assert.equal(row.status, "error");
          assert.equal(await balanceOf(db, r._id), 5 * cents, "refunded");
          const again = await Promise.all([
            refundResellerOrder(db, placed.body.order.id, "again"),
            refundResellerOrder(db, placed.body.order.id, "again"),
          ]);
          assert.deepEqual(again, [false, false]);
          assert.equal(await balanceOf(db, r._id), 5 * cents, "never twice");
          assert.deepEqual(await checkLedger(db), []);
        });

        await t.step(
          "a MooGold order goes out once, by variation id, with the product's fields and our id",
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
            // MooGold sells this variation at 0.87; 5 % markup, rounded up to the cent.
            const r = await newReseller(db, "Traveller", 100);
            const placed = await placeResellerOrder(ctx, {
              game: { supplier: "monkey", productId: "3689112" },
              resellerId: r._id,
              seesHiddenGames: false,
              denom: "Genshin Impact - 60 Genesis Crystals",
              userid: "800123456",
              serverid: "os_asia",
              userName: "",
            });
            const id = placed.body.order.id;
            assert.equal(placed.body.order.amount, 0.92);
            assert.equal(placed.body.order.denom, "3689113");
            assert.equal(await balanceOf(db, r._id), 8);
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true, "a repeat is a no-op");
            const sent = sim.moogold.listOrders().filter((o) => o.partnerOrderId === id);
            assert.equal(sent.length, 1, "the supplier has the order once");
            assert.equal(sent[0].variationId, 3689113);
            assert.equal(sent[0].playerId, "800123456");
            assert.equal(sent[0].serverId, "os_asia");
            let row: OrderRow = await db.selectFrom("orders").selectAll().where("id", "=", id)
              .executeTakeFirstOrThrow();
            assert.equal(row.status, "pending");
            assert.equal(row.supplier_order_id, String(sent[0].orderId));
            sim.moogold.completeOrder(sent[0].orderId);
            row = await refreshOrder(db, suppliers, id);
            assert.equal(row.status, "successful");
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "a MooGold product that asks for a Character Name gets the verified user name",
          async () => {
            await launchGame(
              db,
              suppliers,
              LaunchGameSchema.parse({
                name: "Ragnarok Origin",
                supplier: "monkey",
                supplierName: "Ragnarok Origin",
                supplierGameID: "5177311",
                gameItems: [{
                  id: "5177312",
                  nameSupplier: "Ragnarok Origin - 6 Nyan Berry",
                  nameReseller: "6 Nyan Berry",
                }],
                resellerMarkupAll: 5,
                requiresServerID: true,
              }),
              { _id: null, name: "test" },
            );
            const r = await newReseller(db, "Novice", 500);
            const placed = await placeResellerOrder(ctx, {
              game: { supplier: "monkey", productId: "5177311" },
              resellerId: r._id,
              seesHiddenGames: false,
              denom: "Ragnarok Origin - 6 Nyan Berry",
              userid: "700111222",
              serverid: "1001",
              userName: "Poring Hunter",
            });
            const id = placed.body.order.id;
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
            const sent = sim.moogold.listOrders().filter((o) => o.partnerOrderId === id);
            assert.equal(sent.length, 1, "the supplier accepted the order once");
            const row = await db.selectFrom("orders").select("status").where("id", "=", id)
              .executeTakeFirstOrThrow();
            assert.equal(row.status, "pending");
            assert.deepEqual(await checkLedger(db), []);
          },
        );

        await t.step(
          "Mobile Legends: the server picks the package; a client package that differs is refused",
          async () => {
            const r = await newReseller(db, "Legend", 1000_00);
            const game = await db.selectFrom("games").select("packages").where(
              "supplier_name",
              "=",
              "mlbb",
            )
              .executeTakeFirstOrThrow();
            const special = (game.packages as { name: string; gameItems: GameItemDto[] }[])
              .find((p) => p.name === "mlbb_special")!.gameItems[0];
            const mlbb = (extra: Partial<PlaceOrderInput>) =>
              order(r._id, {
                game: { mobileLegends: true },
                denom: special.nameSupplier,
                ...extra,
              });
            await assert.rejects(
              placeResellerOrder(
                ctx,
                mlbb({ userid: "11111111", serverid: "1111", package: "mlbb_special" }),
              ),
              ConflictError,
            );
            const ok = await placeResellerOrder(
              ctx,
              mlbb({ userid: "22222222", serverid: "2222", package: "mlbb_special" }),
            );
            assert.equal(ok.body.order.package, "mlbb_special");
            assert.equal(ok.body.order.packageEDName, "mlbb_special");
            assert.equal(
              Math.round(ok.body.order.amount * 100),
              computeResellerPrice(special, { markupPercent: 10, disableDiscounts: false }),
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

Deno.test({
  name: `[ledger:${backend}] two instances placing together: a key the other claimed meanwhile ` +
    `refuses only its own order`,
  ignore: backend !== "postgres",
  ...opts,
  async fn() {
    await onTwoInstances(async ({ first, second, locker, sim, denom, cents }) => {
      const r = await newReseller(first, "Twice", 10 * cents);
      const place = (db: Db, keys: string[]) =>
        keys.map((key) =>
          placeResellerOrder(
            { db, suppliers: sim.suppliers },
            { ...pubgOrderInput(r._id, denom), knownReseller: knownReseller(r) },
            key,
          )
        );
      // The reseller's row held, so both instances read the key unused and then wait on the row
      // with their placements; let go, one commits and the other's claim of "shared" fails.
      const row = await holdResellers(locker, [r._id]);
      const results = Promise.allSettled([
        ...place(first, ["shared", "first-1", "first-2"]),
        ...place(second, ["shared", "second-1", "second-2"]),
      ]);
      await row.waited(2);
      await row.release();
      const answers = (await results).map((result) => {
        assert.equal(result.status, "fulfilled", String((result as PromiseRejectedResult).reason));
        return (result as PromiseFulfilledResult<{ text: string }>).value.text;
      });
      assert.equal(answers[3], answers[0], "the key's repeat gets its first answer");
      const orders = await first.selectFrom("orders").select("id")
        .where("reseller_id", "=", r._id).execute();
      assert.equal(orders.length, 5, "the other four keys placed their orders");
      assert.equal(await balanceOf(first, r._id), 5 * cents);
      assert.deepEqual(await checkLedger(first), []);
    });
  },
});

Deno.test({
  name: `[ledger:${backend}] two instances placing for the same resellers in opposite orders ` +
    `wait for each other and both place`,
  ignore: backend !== "postgres",
  ...opts,
  async fn() {
    await onTwoInstances(async ({ first, second, locker, sim, denom, cents }) => {
      const [a, b] = [
        await newReseller(first, "Left", 10 * cents),
        await newReseller(first, "Right", 10 * cents),
      ];
      const place = (db: Db, resellers: (typeof a)[]) =>
        resellers.map((r) =>
          placeResellerOrder(
            { db, suppliers: sim.suppliers },
            {
              ...pubgOrderInput(r._id, denom),
              knownReseller: knownReseller(r),
            },
          )
        );
      // Both rows held, so each instance's statement waits on the first row it locks; were they
      // locked in the order the orders came, the two would each take one row when let go and
      // then wait for the other's: a deadlock, which PostgreSQL breaks by failing one statement,
      // whose orders are then placed one at a time (so at different moments).
      const rows = await holdResellers(locker, [a._id, b._id]);
      const results = Promise.allSettled([...place(first, [a, b]), ...place(second, [b, a])]);
      await rows.waited(2);
      await rows.release();
      const placed = (await results).map((result) => {
        assert.equal(result.status, "fulfilled", String((result as PromiseRejectedResult).reason));
        return (result as PromiseFulfilledResult<{ body: { order: { date: string } } }>).value;
      });
      const moments = placed.map(({ body }) => body.order.date);
      assert.equal(moments[1], moments[0], "the first instance's orders in one statement");
      assert.equal(moments[3], moments[2], "the second instance's orders in one statement");
      assert.equal(await balanceOf(first, a._id), 8 * cents);
      assert.equal(await balanceOf(first, b._id), 8 * cents);
      assert.deepEqual(await checkLedger(first), []);
    });
  },
});
