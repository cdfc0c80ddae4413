// How many statements a reseller order costs the database over its whole life (issue 23): the
// placement (the domain call behind POST /api/reseller/place_order, after its session lookup: the
// game with the Idempotency-Key, then the placement statement), the job runner's pass that sends
// it to EliteDias (claim; the order read with its attempt recorded; EliteDias' answer recorded
// with the move to pending and the status check queued; done), and the pass that checks it and
// marks it successful; for one order, and for ten placed at once (a lane claims them together and
// marks them done together). Every statement the
// handle sends is counted, BEGIN and COMMIT included (src/db/statement-log.ts), on PGlite and
// PostgreSQL alike. A change that adds a statement to the order path fails here; one that saves a
// statement lowers the expected counts (and the before/after in bench/RESULTS.md).
import assert from "node:assert/strict";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { launchPubgMobile, pubgOrderInput } from "../helpers/orders.ts";
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
  name:
    `[order statements:${backend}] a reseller order's life, placed to successful, alone and ten at once`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    let log: string[] | undefined;
    const db = tdb.open((sql) => log?.push(sql.replace(/\s+/g, " ").trim()));
    try {
      const suppliers = sim.suppliers;
      await launchPubgMobile(db, suppliers);
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

      /** Places `n` orders, then runs one pass of each lane; the statements of each phase. */
      const life = async (n: number) => {
        const placement = await counted(() =>
          Promise.all(Array.from({ length: n }, (_, i) =>
            placeResellerOrder({ db, suppliers }, {
              ...pubgOrderInput(reseller._id, denom),
              // As the portal's route passes it: read with the session.
              knownReseller: {
                id: reseller._id,
                name: "Counted",
                markup: {},
                disable_discounts: false,
              },
            }, `counted-${n}-${i}`)))
        );
        // The runner's pass after the placements' kick of the supplier-create lane.
        const create = await counted(() => runner.runOnce(SUPPLIER_CREATE_JOB));
        // EliteDias delivers; the status checks, queued a few seconds ahead, are made due now.
        for (const o of sim.elitedias.listOrders()) sim.elitedias.completeOrder(o.orderId);
        await db.updateTable("jobs").set({ run_at: new Date() }).where("done_at", "is", null)
          .execute();
        const check = await counted(() => runner.runOnce(SUPPLIER_STATUS_JOB));
        const open = await db.selectFrom("orders").select("id")
          .where("status", "!=", "successful").execute();
        assert.deepEqual(open, [], "every order delivered");
        return { placement, create, check };
      };
      const countsOf = (phases: Record<string, string[]>) => {
        const counts = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, v.length]));
        return { ...counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
      };

      const one = await life(1);
      assert.deepEqual(
        countsOf(one),
        { placement: 2, create: 4, check: 4, total: 10 },
        JSON.stringify(one, null, 1),
      );
      // Ten at once: each lane claims them in one statement and marks them done in one.
      const ten = await life(10);
      assert.deepEqual(
        countsOf(ten),
        { placement: 20, create: 22, check: 22, total: 64 },
        JSON.stringify(ten, null, 1),
      );
    } finally {
      await db.destroy();
      await sim.close();
      await tdb.drop();
    }
  },
});
