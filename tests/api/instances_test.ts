import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";
import { openSimWorld, runSeed } from "../helpers/simulation.ts";
import { SIM_SERVER_ENV, simulationSize } from "../helpers/simulation-size.ts";
import { assertInvariantsHold, settleOpenOrders } from "../helpers/harness.ts";
import { mountSimulators, serveSimulatorsAlone } from "../../cli/simulators.ts";
import { loadConfig } from "../../src/config.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** The same browser tab, pointed at another instance: the cookie goes along. */
function sameTabOn(base: string, from: TestClient): TestClient {
  const other = new TestClient(base);
  for (const [name, value] of from.cookies) other.cookies.set(name, value);
  return other;
}

// PGlite is one process's database; scaling out is a PostgreSQL setup.
Deno.test({
  name: "[instances] two app instances on one PostgreSQL share sessions, throttles, keys and jobs",
  ignore: testBackend() !== "postgres",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    // Started together on an empty database: both migrate, bootstrap and seed at once.
    const [a, b]: TestServer[] = await Promise.all([
      startTestServer(tdb),
      startTestServer(tdb),
    ]);
    try {
      await t.step(
        "starting together, they create the demo accounts and catalogue once",
        async () => {
          await withHandle(tdb, async (db) => {
            const admins = await db.selectFrom("admins").select("email").execute();
            assert.deepEqual(admins.map((x) => x.email), ["admin@demo.test"]);
            const resellers = await db.selectFrom("resellers").select("email").execute();
            assert.deepEqual(resellers.map((x) => x.email), [DEMO_RESELLER.email]);
            const games = await db.selectFrom("games").select("name").execute();
            assert.equal(games.length, new Set(games.map((g) => g.name)).size, "no game twice");
            assert.equal(games.length, 7);
          });
        },
      );

      await t.step(
        "a session started on one instance works on the other, and ends on both",
        async () => {
          const onA = await signInDemoReseller(a.url);
          const onB = sameTabOn(b.url, onA);
          const me = await onB.get("/api/current_user");
          assert.equal(me.status, 200, me.text);
          assert.equal(me.json.user.email, DEMO_RESELLER.email);
          assert.equal((await onB.post("/api/logout")).status, 200);
          assert.equal((await onA.get("/api/current_user")).status, 401);
        },
      );

      await t.step("failed sign-ins count across instances", async () => {
        for (let i = 0; i < 5; i++) {
          const r = await new TestClient(i % 2 ? a.url : b.url).post("/api/login_reseller", {
            username: DEMO_RESELLER.email,
            password: `wrong-${i}`,
          });
          assert.equal(r.status, 401);
        }
        const right = await new TestClient(a.url).post("/api/login_reseller", {
          username: DEMO_RESELLER.email,
          password: DEMO_RESELLER.password,
        });
        assert.equal(right.status, 429, "throttled on A after failures on A and B");
        await withHandle(tdb, (db) => db.deleteFrom("login_attempts").execute());
      });

      let onA = new TestClient(a.url);
      let onB = new TestClient(b.url);
      let body: Record<string, unknown> = {};
      let keyedOrderId = "";

      await t.step(
        "one Idempotency-Key sent to both instances at once: one order, one debit",
        async () => {
          onA = await signInDemoReseller(a.url);
          onB = sameTabOn(b.url, onA);
          const order = await pubgOrder(onA);
          const item = order.item;
          body = order.body;
          const before = (await onA.get("/api/current_user")).json.user.balance;
          const answers = await Promise.all(
            Array.from(
              { length: 20 },
              (_, i) =>
                (i % 2 ? onA : onB).post("/api/reseller/place_order", body, {
                  "idempotency-key": "shared-key",
                }),
            ),
          );
          assert.ok(answers.every((r) => r.status === 201), answers.map((r) => r.text).join("\n"));
          assert.equal(new Set(answers.map((r) => r.json.order.id)).size, 1);
          keyedOrderId = answers[0].json.order.id;
          const after = (await onB.get("/api/current_user")).json.user.balance;
          assert.equal(Math.round((before - after) * 100), Math.round(item.price * 100));
        },
      );

      await t.step("the instances' job queues send each order to the supplier once", async () => {
        const placed = await Promise.all(
          Array.from(
            { length: 10 },
            (_, i) => (i % 2 ? onA : onB).post("/api/reseller/place_order", body),
          ),
        );
        assert.ok(placed.every((r) => r.status === 201), placed.map((r) => r.text).join("\n"));
        const ids = [keyedOrderId, ...placed.map((r) => r.json.order.id)];
        // Each instance's runner calls the simulator mounted on that instance.
        const sent = async () =>
          [
            ...(await simControl(a.url, "elitedias", "listOrders")) as { reference: string }[],
            ...(await simControl(b.url, "elitedias", "listOrders")) as { reference: string }[],
          ].map((o) => o.reference);
        for (let i = 0; i < 100; i++) {
          const references = await sent();
          if (ids.every((id) => references.includes(id))) break;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        const references = await sent();
        for (const id of ids) {
          assert.equal(references.filter((r) => r === id).length, 1, `order ${id}`);
        }
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[instances] the seeded simulation across two instances: requests alternate, sessions hold on both, jobs run once, invariants hold",
  ignore: testBackend() !== "postgres",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    // One set of simulators for both instances, so what the suppliers received is counted once.
    const simulators = await serveSimulatorsAlone(
      mountSimulators(loadConfig({ ...Deno.env.toObject(), APP_MODE: "demo" })),
    );
    const env = { ...SIM_SERVER_ENV, TOPUP_SIMULATORS_URL: simulators.url };
    const [a, b] = await Promise.all([startTestServer(tdb, env), startTestServer(tdb, env)]);
    try {
      for (const target of ["moogold", "elitedias"]) {
        await fetch(new URL("/__sim/control", a.url), {
          method: "POST",
          body: JSON.stringify({ target, action: "setKnobs", knobs: { completeAfterMs: 300 } }),
        }).then((r) => r.body?.cancel());
      }
      const world = await openSimWorld(a.url, [b.url]);
      const { seeds, steps } = simulationSize();
      const count = Math.max(20, Math.round(seeds / 5));
      for (let seed = 1; seed <= count; seed++) await runSeed(world, seed, { steps });
      await settleOpenOrders(world.admin);
      await assertInvariantsHold(b.url);
      console.log(`two-instance simulation figures: ${JSON.stringify(world.figures)}`);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      simulators.close();
      await tdb.drop();
    }
  },
});
