// How many statements a reseller order costs the database over its whole life (issue 23): the
// placement (the domain call behind POST /api/reseller/place_order, after its session lookup: the
// game with the Idempotency-Key, then the placement statement), the job runner's pass that sends
// it to EliteDias (claim; the order read with its attempt recorded; EliteDias' answer recorded
// with the move to pending and the status check queued; done), and the pass that checks it and
// marks it successful (tests/helpers/order-life.ts); for one order, and for ten placed at once (a
// lane claims them together and marks them done together). Every statement the handle sends is
// counted, BEGIN and COMMIT included (src/db/statement-log.ts), on PGlite and PostgreSQL alike. A
// change that adds a statement to the order path fails here; one that saves a statement lowers the
// expected counts (and the before/after in bench/RESULTS.md).
import assert from "node:assert/strict";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { launchPubgMobile } from "../helpers/orders.ts";
import { liveOrders, type OrderLives, recordingHandle } from "../helpers/order-life.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name:
    `[order statements:${backend}] a reseller order's life, placed to successful, alone and ten at once`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const sim = startTestSuppliers();
    const handle = recordingHandle((listener) => tdb.open(listener));
    const { db } = handle;
    try {
      await launchPubgMobile(db, sim.suppliers);
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
      // As the portal's route passes it: read with the session.
      const ordering = { id: reseller._id, name: "Counted", markup: {}, disable_discounts: false };
      const countsOf = ({ placement, create, check }: OrderLives) => {
        const counts = {
          placement: placement.length,
          create: create.length,
          check: check.length,
        };
        return { ...counts, total: counts.placement + counts.create + counts.check };
      };
      const sqlOf = ({ placement, create, check }: OrderLives) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries({ placement, create, check }).map(([phase, statements]) => [
              phase,
              statements.map((s) => s.sql.replace(/\s+/g, " ").trim()),
            ]),
          ),
          null,
          1,
        );

      const one = await liveOrders(handle, sim, ordering, denom, 1);
      assert.deepEqual(
        countsOf(one),
        { placement: 2, create: 4, check: 4, total: 10 },
        sqlOf(one),
      );
      // Ten at once: each lane claims them in one statement and marks them done in one.
      const ten = await liveOrders(handle, sim, ordering, denom, 10);
      assert.deepEqual(
        countsOf(ten),
        { placement: 20, create: 22, check: 22, total: 64 },
        sqlOf(ten),
      );
    } finally {
      await db.destroy();
      await sim.close();
      await tdb.drop();
    }
  },
});
