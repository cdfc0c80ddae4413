// A second supplier per item: an order MooGold refuses outright goes to EliteDias, once, and
// nothing switches on an answer that leaves MooGold's side unknown.
import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { consumerOrderRow } from "../helpers/orders.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import type { Db } from "../../src/db/client.ts";
import type { OrderRow } from "../../src/db/schema.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import {
  listGameRoutes,
  listGameRoutesByName,
  mapSupplierGameAsRoutes,
  saveItemRoutes,
} from "../../src/domain/catalogue/item-routes.ts";
import { listGamesForAdmin } from "../../src/domain/catalogue/games.ts";
import { syncGameBySupplierName } from "../../src/domain/catalogue/price-sync.ts";
import { placeResellerOrder, SUPPLIER_CREATE_JOB } from "../../src/domain/orders/place.ts";
import { sendOrderToSupplier } from "../../src/domain/orders/fulfil.ts";
import { computeResellerPrice } from "../../src/domain/catalogue/pricing.ts";
import {
  listSupplierAttempts,
  startSupplierAttempt,
} from "../../src/db/repositories/supplier-attempts.ts";
import { insertBalanceReading } from "../../src/db/repositories/operations.ts";
import { PAYMENT_RECEIVED } from "../../src/domain/payments/consumer-states.ts";
import { NotFoundError, ValidationError } from "../../src/domain/errors.ts";
import type { GameItemDto } from "../../src/shared/game-types.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };
const ED_TOPUP = "/ed/elitedias_reseller_topup_api";
const MG_CREATE = "/mg/order/create_order";
const GENSHIN_PRODUCT = "3689112";
/** Where orders wait to be sent, as the job runner passes it. */
const WAITING = { reseller: "new", consumer: PAYMENT_RECEIVED };
const admin = { _id: "00000000-0000-0000-0000-000000000001", name: "Ops" };

/** Genshin Impact sold through MooGold, its 60-crystal item routed on to EliteDias's. */
async function launchRoutedGenshin(db: Db, suppliers: Suppliers) {
  const game = await launchGame(
    db,
    suppliers,
    LaunchGameSchema.parse({
      name: "Genshin Impact",
      supplier: "monkey",
      supplierName: "Genshin Impact",
      supplierGameID: GENSHIN_PRODUCT,
      requiresServerID: true,
      resellerMarkupAll: 5,
    }),
    { _id: null, name: "test" },
  );
  const item = game.gameItems.find((i) => i.nameReseller === "60 Genesis Crystals")!;
  const itemKey = item.id!;
  await saveItemRoutes(db, suppliers, {
    gameId: game._id,
    itemKey,
    routes: [{ supplier: "elephant", game: "genshin", item: "60 Genesis Crystals" }],
  }, admin);
  return { game, item, itemKey };
}

async function orderRow(db: Db, id: string): Promise<OrderRow> {
  return await db.selectFrom("orders").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function createJobsFor(db: Db, id: string): Promise<number> {
  const jobs = await db.selectFrom("jobs").select("payload").where("kind", "=", SUPPLIER_CREATE_JOB)
    .execute();
  return jobs.filter((j) => j.payload.orderId === id).length;
}

Deno.test({
  name: `[routes:${backend}] an item's routes are checked against the supplier's offer`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        const { game, itemKey } = await launchRoutedGenshin(db, sim.suppliers);
        const listed = await listGameRoutes(db, game._id);
        const routes = listed.items.find((i) => i.itemKey === itemKey)!.routes;
        assert.deepEqual(
          routes.map((r) => [r.supplier, r.game, r.item, r.cost]),
          [
            ["monkey", GENSHIN_PRODUCT, itemKey, 0.87],
            ["elephant", "genshin", "60 Genesis Crystals", 0.85],
          ],
          "the item's own supplier first, then EliteDias at the cost EliteDias states",
        );
        const save = (routes: { supplier: string; game: string; item: string }[], key = itemKey) =>
          saveItemRoutes(db, sim.suppliers, { gameId: game._id, itemKey: key, routes }, admin);
        await assert.rejects(
          save([{ supplier: "elephant", game: "genshin", item: "61 Genesis Crystals" }]),
          (e) => e instanceof ValidationError && /EliteDias does not sell/.test(e.message),
        );
        await assert.rejects(
          save([{ supplier: "monkey", game: GENSHIN_PRODUCT, item: itemKey }]),
          (e) => e instanceof ValidationError && /already this item's first route/.test(e.message),
        );
        await assert.rejects(
          save([
            { supplier: "elephant", game: "genshin", item: "60 Genesis Crystals" },
            { supplier: "elephant", game: "genshin", item: "60 Genesis Crystals" },
          ]),
          (e) => e instanceof ValidationError && /one route of an item only/.test(e.message),
        );
        await assert.rejects(save([], "no such item"), NotFoundError);
        const byName = await listGameRoutesByName(db, "genshin impact");
        assert.deepEqual(byName, listed, "the CLI finds the game by its name");

        // A price sync re-reads the route's cost from EliteDias, without touching the game.
        sim.elitedias.setCost("genshin", "60 Genesis Crystals", "0.91");
        const version = (await listGamesForAdmin(db)).find((g) => g._id === game._id)!.version;
        const synced = await syncGameBySupplierName(db, sim.suppliers, "Genshin Impact");
        assert.deepEqual(synced.changes, [
          { item: "60 Genesis Crystals via EliteDias", from: 0.85, to: 0.91 },
        ]);
        const resynced = (await listGameRoutes(db, game._id)).items
          .find((i) => i.itemKey === itemKey)!.routes;
        assert.equal(resynced[1].cost, 0.91);
        assert.equal(
          (await listGamesForAdmin(db)).find((g) => g._id === game._id)!.version,
          version,
          "the game's own row is not rewritten for a route's cost",
        );
        sim.elitedias.setCost("genshin", "60 Genesis Crystals", "0.85");
        await syncGameBySupplierName(db, sim.suppliers, "Genshin Impact");
        const after = await listGameRoutes(db, game._id);
        assert.deepEqual(after, listed, "a refused save changes nothing");
        await save([]);
        const cleared = (await listGameRoutes(db, game._id)).items
          .find((i) => i.itemKey === itemKey)!.routes;
        assert.deepEqual(cleared.map((r) => r.supplier), ["monkey"], "removed: its own only");
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[routes:${backend}] a game another supplier already sells gets that supplier's items as routes, by name`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    try {
      await withHandle(tdb, async (db) => {
        const game = await launchGame(
          db,
          sim.suppliers,
          LaunchGameSchema.parse({
            name: "Genshin Impact",
            supplier: "elephant",
            supplierName: "genshin",
            requiresServerID: true,
          }),
          { _id: null, name: "test" },
        );
        const input = {
          gameId: game._id,
          supplier: "monkey",
          supplierName: "Genshin Impact",
          supplierGameId: GENSHIN_PRODUCT,
        };
        const mapped = await mapSupplierGameAsRoutes(db, sim.suppliers, input, admin);
        assert.deepEqual(mapped, {
          mapped: 3,
          unmatched: ["980 + 110 Genesis Crystals", "1980 + 260 Genesis Crystals"],
        });
        const routes = await listGameRoutes(db, game._id);
        const welkin = routes.items.find((i) => i.itemKey === "Blessing of the Welkin Moon")!;
        assert.deepEqual(
          welkin.routes.map((r) => [r.supplier, r.game, r.item, r.cost]),
          [
            ["elephant", "genshin", "Blessing of the Welkin Moon", 4.25],
            ["monkey", GENSHIN_PRODUCT, "3689115", 4.31],
          ],
        );
        const again = await mapSupplierGameAsRoutes(db, sim.suppliers, input, admin);
        assert.equal(again.mapped, 0, "an item already routed there is left as it is");
        await assert.rejects(
          mapSupplierGameAsRoutes(db, sim.suppliers, { ...input, supplier: "elephant" }, admin),
          (e) => e instanceof ValidationError && /already sold through EliteDias/.test(e.message),
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
    `[routes:${backend}] an order MooGold refuses outright is delivered by EliteDias, once, at EliteDias's cost`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    const suppliers = sim.suppliers;
    try {
      await withHandle(tdb, async (db) => {
        const { game, item, itemKey } = await launchRoutedGenshin(db, suppliers);
        const cents = computeResellerPrice(item as GameItemDto, {
          markupPercent: 5,
          disableDiscounts: false,
        });
        const reseller = await createTestReseller(db, {
          name: "Router",
          email: "router@test.example",
          password: "long enough password",
          balanceCents: 10 * cents,
          markup: {},
        });
        const place = async () =>
          (await placeResellerOrder({ db, suppliers }, {
            game: { supplier: "monkey", productId: GENSHIN_PRODUCT },
            resellerId: reseller._id,
            seesHiddenGames: false,
            denom: item.nameSupplier,
            userid: "812345678",
            serverid: "os_asia",
            userName: "Traveler",
          })).body.order.id;

        await t.step("a refusal moves the order to EliteDias with a new create job", async () => {
          const id = await place();
          sim.moogold.rejectOrders();
          try {
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
          } finally {
            sim.moogold.acceptOrders();
          }
          const moved = await orderRow(db, id);
          assert.equal(moved.status, "new", "the reseller still sees it waiting");
          assert.equal(moved.supplier, "elephant");
          assert.equal(moved.denom, "60 Genesis Crystals");
          assert.equal(moved.package_ed_name, "genshin");
          assert.equal(Number(moved.cost), 0.85, "the cost is EliteDias's");
          assert.equal(moved.amount_cents, cents, "the buyer's price never changes");
          assert.equal(moved.route_item_key, itemKey);
          assert.match(moved.last_error ?? "", /MooGold refused: .*Out of stock.*EliteDias/);
          assert.equal(await createJobsFor(db, id), 2, "the placement's job and the new route's");
          assert.equal(
            await startSupplierAttempt(db, id, WAITING, "monkey"),
            undefined,
            "a sender still holding the order at MooGold is not cleared to send it there",
          );

          assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
          // Whatever runs it again (the job twice, a refresh) finds it already at EliteDias.
          await sendOrderToSupplier(db, suppliers, id);
          const sent = await orderRow(db, id);
          assert.equal(sent.status, "pending");
          assert.ok(sent.supplier_order_id);
          assert.equal(sim.moogold.listOrders().length, 0, "MooGold made nothing");
          const held = sim.elitedias.listOrders().filter((o) => o.reference === id);
          assert.equal(held.length, 1, "one EliteDias order");
          assert.equal(held[0].game, "genshin");
          assert.equal(held[0].denom, "60 Genesis Crystals");
          const attempts = await listSupplierAttempts(db, [id]);
          assert.deepEqual(
            attempts.map((a) => [a.supplier, a.outcome]),
            [["monkey", "failed"], ["elephant", "accepted"]],
          );
          const balance = await db.selectFrom("resellers").select("balance_cents")
            .where("id", "=", reseller._id).executeTakeFirstOrThrow();
          assert.equal(balance.balance_cents, 9 * cents, "charged once, never refunded");
        });

        await t.step("an uncertain MooGold answer does not switch", async () => {
          const id = await place();
          const edBefore = sim.requestsTo(ED_TOPUP);
          const mgBefore = sim.requestsTo(MG_CREATE);
          sim.moogold.forceNext("timeout", 1, "order/create_order");
          assert.equal(await sendOrderToSupplier(db, suppliers, id), false, "asked again later");
          const row = await orderRow(db, id);
          assert.equal(row.supplier, "monkey");
          assert.equal(row.route_item_key, null);
          assert.equal(sim.requestsTo(MG_CREATE) - mgBefore, 1);
          assert.equal(sim.requestsTo(ED_TOPUP) - edBefore, 0, "EliteDias was never asked");
          assert.equal(await createJobsFor(db, id), 1);
        });

        await t.step(
          "a route known to be short of its cost is skipped; then the order fails",
          async () => {
            await insertBalanceReading(db, {
              vendor: "elitedias",
              balanceCents: 50,
              currency: "SGD",
            });
            const id = await place();
            const edBefore = sim.requestsTo(ED_TOPUP);
            sim.moogold.rejectOrders();
            try {
              assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
            } finally {
              sim.moogold.acceptOrders();
            }
            const row = await orderRow(db, id);
            assert.equal(row.status, "error", "refunded as without routes");
            assert.equal(row.supplier, "monkey");
            assert.match(row.last_error ?? "", /Out of stock.*skipped: EliteDias's last balance/);
            assert.equal(sim.requestsTo(ED_TOPUP) - edBefore, 0);
            const attempts = await listSupplierAttempts(db, [id]);
            assert.deepEqual(
              attempts.map((a) => [a.supplier, a.outcome]),
              [["monkey", "failed"], ["elephant", "not at supplier"]],
            );
            await insertBalanceReading(db, {
              vendor: "elitedias",
              balanceCents: 100_000,
              currency: "SGD",
            });
          },
        );

        await t.step("consumer orders take the same routes; every refusal fails it", async () => {
          const id = "CROUTED000001";
          await db.insertInto("orders").values(consumerOrderRow({
            id,
            status: PAYMENT_RECEIVED,
            game_id: game._id,
            supplier: "monkey",
            denom: itemKey,
            cost: "0.87",
            payment_reference: "pay-routed-1",
          })).execute();
          sim.moogold.rejectOrders();
          sim.elitedias.rejectOrders();
          try {
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
            assert.equal((await orderRow(db, id)).supplier, "elephant");
            assert.equal(await sendOrderToSupplier(db, suppliers, id), true);
          } finally {
            sim.moogold.acceptOrders();
            sim.elitedias.acceptOrders();
          }
          const row = await orderRow(db, id);
          assert.equal(row.status, "error", "left for an admin once no route is left");
          assert.equal(row.supplier, "elephant");
          const attempts = await listSupplierAttempts(db, [id]);
          assert.deepEqual(
            attempts.map((a) => [a.supplier, a.outcome]),
            [["monkey", "failed"], ["elephant", "failed"]],
          );
        });
      });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});
