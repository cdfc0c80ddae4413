import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

// PGlite is one process's database: several workers are a PostgreSQL setup.
Deno.test({
  name:
    "[workers] WORKERS=2 serves one port from two processes sharing sessions; SIGTERM stops both",
  ignore: testBackend() !== "postgres",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      WORKERS: "2",
      TOPUP_TEST_WORKER_PID_HEADER: "1",
    });
    const pids = new Set<string>();
    try {
      await t.step("start-up says two workers and creates the demo data once", async () => {
        assert.match(server.output(), /\(demo mode, PostgreSQL, 2 workers\)/);
        await withHandle(tdb, async (db) => {
          const admins = await db.selectFrom("admins").select("email").execute();
          assert.deepEqual(admins.map((x) => x.email), ["admin@demo.test"]);
          const games = await db.selectFrom("games").select("name").execute();
          assert.equal(games.length, 7);
        });
      });

      await t.step(
        "new connections reach both processes, and a session works on each",
        async () => {
          const reseller = await signInDemoReseller(server.url);
          for (let i = 0; i < 40 && pids.size < 2; i++) {
            // A new connection each time: the kernel picks the listening process per connection.
            const me = await reseller.get("/api/current_user", { connection: "close" });
            assert.equal(me.status, 200, me.text);
            assert.equal(me.json.user.email, DEMO_RESELLER.email);
            pids.add(me.headers.get("x-worker-pid")!);
          }
          assert.equal(pids.size, 2, `answered by ${[...pids].join(", ")}`);
          assert.ok(!pids.has(String(server.pid)), "the supervising process serves nothing");
        },
      );

      await t.step(
        "orders placed on both reach the one simulated supplier once each, from the job runners",
        async () => {
          const reseller = await signInDemoReseller(server.url);
          const { body } = await pubgOrder(reseller);
          const placed = await Promise.all(Array.from(
            { length: 10 },
            () => reseller.post("/api/reseller/place_order", body, { connection: "close" }),
          ));
          assert.ok(placed.every((r) => r.status === 201), placed.map((r) => r.text).join("\n"));
          assert.equal(new Set(placed.map((r) => r.headers.get("x-worker-pid"))).size, 2);
          const ids = placed.map((r) => r.json.order.id as string);
          // The simulators live once, in the started process; every worker forwards to them.
          const sent = async () =>
            ((await simControl(server.url, "elitedias", "listOrders")) as { reference: string }[])
              .map((o) => o.reference);
          for (let i = 0; i < 100; i++) {
            const references = await sent();
            if (ids.every((id) => references.includes(id))) break;
            await new Promise((ok) => setTimeout(ok, 100));
          }
          const references = await sent();
          for (const id of ids) {
            assert.equal(references.filter((r) => r === id).length, 1, `order ${id}`);
          }
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
    await t.step("SIGTERM to the started process stops every worker", () => {
      for (const pid of pids) assert.ok(!existsSync(`/proc/${pid}`), `worker ${pid} still runs`);
    });
  },
});
