import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import {
  type AdminActor,
  createAdminAs,
  deleteAdminAs,
  listAdminsMatching,
} from "../../src/domain/admin/admins.ts";
import { ConflictError } from "../../src/domain/errors.ts";

const backend = testBackend();
const cli: AdminActor = { kind: "cli", name: "ops" };

Deno.test({
  name: `[admins:${backend}] the last superadmin cannot be deleted, even by parallel deletes`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const make = (n: number) =>
          createAdminAs(db, cli, {
            name: `Super ${n}`,
            email: `super${n}@ops.test`,
            rank: "superadmin",
            password: "long enough password",
          });
        const [a, b, c] = await Promise.all([make(1), make(2), make(3)]);

        // Three deletes at once leave exactly one superadmin: the row locks queue them.
        const results = await Promise.allSettled(
          [a, b, c].map((admin) => deleteAdminAs(db, cli, admin._id)),
        );
        assert.equal(results.filter((r) => r.status === "fulfilled").length, 2);
        const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        assert.ok(refused.reason instanceof ConflictError);
        assert.equal(refused.reason.message, "The last superadmin cannot be deleted");
        const left = await listAdminsMatching(db, "superadmin");
        assert.equal(left.length, 1);

        await assert.rejects(deleteAdminAs(db, cli, left[0]._id), /last superadmin/);
        const audit = await db.selectFrom("audit_log").select(["action", "actor_type"])
          .where("action", "=", "admin.delete").execute();
        assert.deepEqual(audit, [
          { action: "admin.delete", actor_type: "cli" },
          { action: "admin.delete", actor_type: "cli" },
        ]);
      });
    } finally {
      await tdb.drop();
    }
  },
});
