// How many statements one reseller order costs the database over its whole life (issue 23): the
// placement (the domain call behind POST /api/reseller/place_order, after its session lookup), the
// job runner's pass that sends it to EliteDias (claim, create, move to pending, queue the status
// check), and the pass that checks it and marks it successful. Every statement the handle sends is
// counted, BEGIN and COMMIT included (src/db/statement-log.ts), on PGlite and PostgreSQL alike. A
// change that adds a statement to the order path fails here; one that saves a statement lowers
// the expected count (and the before/after in bench/RESULTS.md).
import assert from "node:assert/strict";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { launchGame, LaunchGameSchema } from "../../src/domain/catalogue/launch.ts";
import {
  placeResellerOrder,
  SUPPLIER_CREATE_JOB,
  SUPPLIER_STATUS_JOB,
} from "../../src/domain/orders/place.ts";
import { orderJobHandlers } from "../../src/domain/orders/jobs.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: `[order statements:${backend}] one reseller order's life, placed to successful`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    let log: string[] | undefined;
    const db = tdb.open((sql) => log?.push(sql.replace(/\s+/g, " ").trim()));
    try {
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
        name: "Counted",
        email: "counted@test.example",
        password: "long enough",
        balanceCents: 100_000,
        markup: {},
      });
      const game = await db.selectFrom("games").select("game_items")
        .where("supplier_name", "=", "pubgm").executeTakeFirstOrThrow();
      const denom = (game.game_items as { nameSupplier: string }[])[0].nameSupplier;
      const runner = createJobRunner(db, orderJobHandlers(db, () => suppliers), {
        worker: "counted",
      });
      const counted = async (work: () => Promise<unknown>): Promise<string[]> => {
        log = [];
        await work();
        const statements = log;
        log = undefined;
        return statements;
      };

      const placement = await counted(() =>
        placeResellerOrder({ db, suppliers }, {
          kind: "elephant",
          resellerId: reseller._id,
          // As the portal's route passes it: read with the session.
          knownReseller: {
            id: reseller._id,
            name: "Counted",
            markup: {},
            disable_discounts: false,
          },
          seesHiddenGames: false,
          supplierGameName: "pubgm",
          denom,
          userid: "5551234",
          serverid: "",
          userName: "Player",
        }, "counted-key")
      );
      // The runner's pass after the placement's kick of the supplier-create lane.
      const create = await counted(() => runner.runOnce(SUPPLIER_CREATE_JOB));
      // EliteDias delivers; the status check, queued a few seconds ahead, is made due at once.
      sim.elitedias.completeOrder(sim.elitedias.listOrders()[0].orderId);
      await db.updateTable("jobs").set({ run_at: new Date() }).where("done_at", "is", null)
        .execute();
      const check = await counted(() => runner.runOnce(SUPPLIER_STATUS_JOB));

      const order = await db.selectFrom("orders").select("status").executeTakeFirstOrThrow();
      assert.equal(order.status, "successful");
      const counts = {
        placement: placement.length,
        create: create.length,
        check: check.length,
        total: placement.length + create.length + check.length,
      };
      assert.deepEqual(
        counts,
        { placement: 2, create: 7, check: 7, total: 16 },
        JSON.stringify({ placement, create, check }, null, 1),
      );
    } finally {
      await db.destroy();
      await sim.close();
      await tdb.drop();
    }
  },
});
