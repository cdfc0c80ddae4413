// `orders refresh` from cron: an order whose supplier gave no answer was not checked, and the run
// says so with its exit code, as `payments reconcile` does.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { runCli } from "../helpers/cli.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { pendingPubgOrders } from "../helpers/orders.ts";

Deno.test({
  name:
    "[orders refresh] with every supplier unreachable it exits 1 and counts each open order as not checked",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const sim = startTestSuppliers();
    try {
      const ids = await withHandle(tdb, (db) => pendingPubgOrders(db, sim.suppliers, 2));
      await sim.close();

      const run = await runCli(["orders", "refresh"], {
        ...tdb.env,
        // Nothing listens on port 1: every supplier call is refused.
        TOPUP_INTERNAL_URL: "http://127.0.0.1:1",
      });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /^2 open order\(s\): 0 checked, 2 could not be checked$/m);
      for (const id of ids) {
        assert.match(
          run.stderr,
          new RegExp(`^  ${id}: network: cannot reach 127\\.0\\.0\\.1:1`, "m"),
        );
      }
      const statuses = await withHandle(
        tdb,
        (db) => db.selectFrom("orders").select("status").execute(),
      );
      assert.deepEqual(statuses.map((o) => o.status), ["pending", "pending"], "nothing moved");

      const json = await runCli(["orders", "refresh", "--json"], {
        ...tdb.env,
        TOPUP_INTERNAL_URL: "http://127.0.0.1:1",
      });
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout), { checked: 2, failed: 2 });
    } finally {
      await sim.close();
      await tdb.drop();
    }
  },
});
