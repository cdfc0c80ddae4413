import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";

const RATE_PATH = "/api/yahoo_finance/usd_sgd";
const opts = { sanitizeOps: false, sanitizeResources: false };

/** Pulls a lever of the Yahoo Finance simulator mounted on the test server. */
async function yahoo(base: string, action: string, args: unknown[] = []): Promise<void> {
  const r = await fetch(new URL("/__sim/control", base), {
    method: "POST",
    body: JSON.stringify({ target: "yahoo", action, args }),
  });
  assert.equal(r.status, 200, await r.text());
}

Deno.test({
  name: "[fx] rate, mark-up settings and Yahoo failures over HTTP",
  ...opts,
  async fn(t) {
    const tdb: TestDatabase = await createTestDatabase();
    // FX_CACHE_SECONDS=0: every view refreshes, so the simulator's rate shows at once.
    const server: TestServer = await startTestServer(tdb, { FX_CACHE_SECONDS: "0" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const reseller = await signInDemoReseller(server.url);

      await t.step("Yahoo failing with no cached rate: 502 with the spec text", async () => {
        await yahoo(server.url, "forceNext", ["error"]);
        const r = await reseller.get(RATE_PATH);
        assert.equal(r.status, 502, r.text);
        assert.equal(
          r.json.error,
          "Fail to get Yahoo Finance rate, please try again. Error: Yahoo Finance: " +
            "Internal Server Error: Simulated Yahoo Finance failure",
        );
      });

      await t.step("a reseller and an admin read the market rate less a mark-up of 0", async () => {
        for (const client of [reseller, admin]) {
          const r = await client.get(RATE_PATH);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.rate, 1.3456);
          assert.equal(r.json.marketRate, 1.3456);
          assert.equal(r.json.fxRateMarkUp, 0);
          assert.ok(Date.now() - Date.parse(r.json.fetchedAt) < 60_000, r.json.fetchedAt);
        }
      });

      await t.step("signed out: 401", async () => {
        assert.equal((await new TestClient(server.url).get(RATE_PATH)).status, 401);
        assert.equal((await new TestClient(server.url).get("/api/settings")).status, 401);
      });

      await t.step("GET /api/settings gives fxRateMarkUp to both roles", async () => {
        for (const client of [admin, reseller]) {
          const r = await client.get("/api/settings");
          assert.equal(r.status, 200, r.text);
          assert.deepEqual(r.json, { fxRateMarkUp: 0 });
        }
      });

      await t.step("PUT /api/settings as admin changes the shown rate, in SGD cents", async () => {
        await yahoo(server.url, "setRate", ["1.3512"]);
        const put = await admin.request("PUT", "/api/settings", { fxRateMarkUp: 2.5 });
        assert.equal(put.status, 200, put.text);
        assert.deepEqual(put.json, { fxRateMarkUp: 2.5 });
        const r = await reseller.get(RATE_PATH);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.marketRate, 1.3512);
        assert.equal(r.json.rate, 1.3262, "1.3512 − 2.5 cents");
        assert.equal(r.json.fxRateMarkUp, 2.5);
        assert.deepEqual((await reseller.get("/api/settings")).json, { fxRateMarkUp: 2.5 });
      });

      await t.step("a reseller cannot PUT settings, and nothing changes", async () => {
        const r = await reseller.request("PUT", "/api/settings", { fxRateMarkUp: 0 });
        assert.equal(r.status, 403, r.text);
        assert.deepEqual((await admin.get("/api/settings")).json, { fxRateMarkUp: 2.5 });
      });

      await t.step("bad mark-ups are a 400 naming the problem, and nothing changes", async () => {
        const cases: [unknown, RegExp][] = [
          [{ fxRateMarkUp: -1 }, /fxRateMarkUp: must not be negative/],
          [{ fxRateMarkUp: 100000 }, /fxRateMarkUp: must be below 100000/],
          [{ fxRateMarkUp: 1.234 }, /fxRateMarkUp: must have at most 2 decimal places/],
          [{ fxRateMarkUp: "2" }, /fxRateMarkUp: expected a number/],
          [{}, /fxRateMarkUp/],
          ["{not json", /valid JSON/],
        ];
        for (const [body, message] of cases) {
          const r = await admin.request("PUT", "/api/settings", body);
          assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
          assert.match(r.json.error, message);
        }
        assert.deepEqual((await admin.get("/api/settings")).json, { fxRateMarkUp: 2.5 });
      });

      await t.step(
        "a mark-up at or above the market rate is refused with a clear 409",
        async () => {
          await admin.request("PUT", "/api/settings", { fxRateMarkUp: 135.12 });
          const r = await reseller.get(RATE_PATH);
          assert.equal(r.status, 409, r.text);
          assert.match(r.json.error, /not below the market rate/);
          await admin.request("PUT", "/api/settings", { fxRateMarkUp: 2.5 });
        },
      );

      await t.step("Yahoo failing with a cached rate under 24 h old serves that rate", async () => {
        await yahoo(server.url, "setRate", ["1.5"]);
        await yahoo(server.url, "forceNext", ["malformed"]);
        const r = await reseller.get(RATE_PATH);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.marketRate, 1.3512, "the last good rate, not the unseen 1.5");
        assert.equal(r.json.rate, 1.3262);
      });

      await t.step("the mark-up change was audited with before and after", async () => {
        await server.stop();
        const rows = await withHandle(
          tdb,
          (db) =>
            db.selectFrom("audit_log").select([
              "actor_type",
              "action",
              "target_id",
              "before",
              "after",
            ])
              .where("action", "=", "settings.update").orderBy("id").execute(),
        );
        assert.deepEqual(rows[0], {
          actor_type: "admin",
          action: "settings.update",
          target_id: "fxRateMarkUp",
          before: { fxRateMarkUp: 0 },
          after: { fxRateMarkUp: 2.5 },
        });
        assert.equal(rows.length, 3);
      });
    } finally {
      await server.stop().catch(() => {});
      await tdb.drop();
    }
  },
});
