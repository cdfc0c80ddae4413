// How many statements a reseller order costs the database over its whole life: the
// placement (the domain call behind POST /api/reseller/place_order, after its session lookup: the
// game's row version with the Idempotency-Key, then the placement statement; the game itself is
// read whole only by a process's first order of it and after it changed), the job runner's pass
// that sends it to EliteDias (claim; the order read with its attempt recorded; EliteDias' answer
// recorded with the move to pending and the status check queued; done), and the pass that checks
// it and marks it successful (tests/helpers/order-life.ts); for one order, and for ten placed at once
// by one reseller (their placements' reads go out as one statement and their placements as
// another, one debit for the ten; a lane claims them together, reads them together, records the
// answers that arrive together in one statement, and marks them done together), and for ten
// placed at once by ten resellers (two statements too). Every statement the handle sends is
// counted, BEGIN and COMMIT included (src/db/statement-log.ts), on PGlite and PostgreSQL alike. A
// change that adds a statement to the order path fails here; one that saves a statement lowers
// the expected counts (and the before/after in bench/RESULTS.md).
import assert from "node:assert/strict";
import { testBackend } from "../helpers/backends.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import {
  liveOrders,
  type LoggedStatement,
  type OrderLives,
  withOrderLives,
} from "../helpers/order-life.ts";

/**
 * A job pass's statements as steps: its claim, its read, its writes (one step however many
 * statements carry them), the statement marking the jobs done.
 */
function stepsOf(statements: LoggedStatement[]): string[] {
  const steps = statements.map((s, i) =>
    i === 0 && s.sql.includes("SET locked_by")
      ? "claim"
      : i === statements.length - 1 && s.sql.includes("SET done_at")
      ? "done"
      : /^\s*(select|WITH o AS)/i.test(s.sql)
      ? "read"
      : "write"
  );
  return steps.filter((step, i) => step !== "write" || steps[i - 1] !== "write");
}

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name:
    `[order statements:${backend}] a reseller order's life, placed to successful, alone and ten at once`,
  ...opts,
  async fn() {
    await withOrderLives("Counted", 100_000, async ({ handle, db, sim, denom, ordering }) => {
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

      // The process's first order of the game also reads the game whole (its items and markups);
      // later ones find it kept, at the row version their read returns.
      const first = await liveOrders(handle, sim, ordering, denom, 1);
      assert.deepEqual(
        countsOf(first),
        { placement: 3, create: 4, check: 4, total: 11 },
        sqlOf(first),
      );
      const one = await liveOrders(handle, sim, ordering, denom, 1);
      assert.deepEqual(
        countsOf(one),
        { placement: 2, create: 4, check: 4, total: 10 },
        sqlOf(one),
      );
      // Ten at once: one statement reads their games and keys, one places them all; each lane
      // claims them in one statement, reads them in one and marks them
      // done in one; the answers that come back together are recorded together (all ten in one
      // statement when they arrive in one turn, which a loaded machine may split).
      const ten = await liveOrders(handle, sim, ordering, denom, 10);
      assert.deepEqual(
        { placement: ten.placement.length, create: stepsOf(ten.create), check: stepsOf(ten.check) },
        {
          placement: 2,
          create: ["claim", "read", "write", "done"],
          check: ["claim", "read", "write", "done"],
        },
        sqlOf(ten),
      );
      // Ten at once by ten resellers: still one statement places them all, each reseller's
      // balance debited by its own order.
      const others = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
        const other = await createTestReseller(db, {
          name: `Counted ${i}`,
          email: `counted.${i}@test.example`,
          password: "long enough password",
          balanceCents: 100_000,
          markup: {},
        });
        return { id: other._id, name: other.name, markup: {}, disable_discounts: false };
      }));
      const spread = await liveOrders(handle, sim, others, denom, 10);
      assert.equal(spread.placement.length, 2, sqlOf(spread));
      const writes = (statements: LoggedStatement[]) => statements.length - 3;
      console.log(
        `ten at once: ${ten.placement.length} + ${ten.create.length} + ${ten.check.length} ` +
          `statements (writes: ${writes(ten.create)} create, ${writes(ten.check)} check)`,
      );
    });
  },
});
