import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";

const backend = testBackend();

/** A port nobody listens on now, for the script's receiver. */
function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

Deno.test({
  name:
    `[webhook demo:${backend}] the README's script orders with a CLI-issued key and its receiver verifies the webhook`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      const run = await new Deno.Command("sh", {
        args: ["examples/webhook-demo.sh"],
        env: {
          ...tdb.env,
          RECEIVER_PORT: String(freePort()),
          USER: "ops-demo",
          WORKERS: "1",
          ASTRO_NODE_LOGGING: "disabled",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(run.stdout);
      const err = new TextDecoder().decode(run.stderr);
      assert.equal(run.code, 0, `${out}\n${err}`);

      const orderId = out.match(/^placed order (\S+):/m)?.[1];
      assert.ok(orderId, out);
      assert.match(out, new RegExp(`^order ${orderId} is successful`, "m"));
      assert.match(
        out,
        new RegExp(
          `^receiver: verified order\\.successful \\S+: order ${orderId} is successful`,
          "m",
        ),
      );

      await withHandle(tdb, async (db) => {
        const issued = await db.selectFrom("audit_log").select(["actor_type", "actor_name"])
          .where("action", "=", "api_key.create").execute();
        assert.deepEqual(issued, [{ actor_type: "cli", actor_name: "ops-demo" }]);
        const order = await db.selectFrom("orders").select(["status", "reseller_name"])
          .where("id", "=", orderId).executeTakeFirstOrThrow();
        assert.deepEqual(order, { status: "successful", reseller_name: "Demo Reseller" });
        const deliveries = await db.selectFrom("webhook_deliveries").select(["status_code"])
          .execute();
        assert.deepEqual(deliveries, [{ status_code: 200 }], "one delivery, answered 200");
      });
    } finally {
      await tdb.drop();
    }
  },
});
