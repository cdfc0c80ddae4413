import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PASSWORD = "b-reseller-pass";

Deno.test({
  name: "[reseller orders] ordering, ownership, tampering and passwords over HTTP",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createTestReseller(db, {
        name: "Bee Reseller",
        email: "bee@test.example",
        password: PASSWORD,
        balanceCents: 50,
        markup: { mlbb: 1, mlbb_special: 1, mlbb_global: 1 },
      });
    });
    const server = await startTestServer(tdb);
    try {
      const a = await signInDemoReseller(server.url);
      const b = new TestClient(server.url);
      assert.equal(
        (await b.post("/api/login_reseller", { username: "bee@test.example", password: PASSWORD }))
          .status,
        200,
      );
      const aId = (await a.get("/api/current_user")).json.user._id as string;
      const bId = (await b.get("/api/current_user")).json.user._id as string;
      const { games, item, body: pubgBody } = await pubgOrder(a);
      const freeFire = games.find((g) => g.supplierName === "Free Fire")!;
      const body = { reseller: { name: "Demo Reseller", id: aId }, ...pubgBody };
      let orderId = "";

      await t.step("verify answers in the spec's shapes for each supplier", async () => {
        const ml = await a.post("/api/resellers/verify_id/mlbb", {
          userid: "22222222",
          serverid: "2222",
          reseller: "Demo Reseller",
        });
        assert.equal(ml.status, 200);
        assert.equal(ml.json.mlbb_special, "valid");
        assert.deepEqual(ml.json.choice, { kind: "ok", package: "mlbb_special" });
        const invalid = await a.post("/api/resellers/verify_id/mlbb", {
          userid: "55555555",
          serverid: "5555",
        });
        assert.deepEqual(invalid.json.choice, { kind: "invalid" });
        const ed = await a.post("/api/resellers/verify_id", {
          game: "pubgm",
          userid: "5551234",
          serverid: "",
          reseller: "x",
        });
        assert.equal(ed.json.valid, "valid");
        assert.equal(
          (await a.post("/api/resellers/verify_id", { game: "pubgm", userid: "invalid-1" })).json
            .valid,
          "invalid",
        );
        const mg = await a.post("/api/product_validate", {
          game: freeFire.supplierGameID,
          userid: "123456789",
          serverid: "",
          reseller: "x",
          gameName: "Free Fire",
        });
        assert.equal(mg.json.status, "true");
        assert.ok(mg.json.username);
        assert.equal(
          (await a.post("/api/resellers/verify_id/mlbb", { userid: "", serverid: "1" })).status,
          400,
        );
      });

      await t.step("an order is charged the server price and recorded in the history", async () => {
        const before = (await a.get("/api/current_user")).json.user.balance as number;
        const r = await a.post("/api/reseller/place_order", body, { "idempotency-key": "order-1" });
        assert.equal(r.status, 201, r.text);
        orderId = r.json.order.id;
        assert.equal(r.json.order.amount, item.price);
        assert.equal(r.json.order.status, "new");
        const again = await a.post("/api/reseller/place_order", body, {
          "idempotency-key": "order-1",
        });
        assert.equal(again.json.order.id, orderId, "a retried request returns the first order");
        const after = (await a.get("/api/current_user")).json.user.balance as number;
        assert.equal(Math.round((before - after) * 100), Math.round(item.price * 100));
        const history = (await a.get(`/api/reseller/${aId}/balance_history`)).json;
        assert.equal(history[0].type, "order_placed");
        assert.equal(history[0].order.id, orderId);
        assert.equal(history[0].order.amount, item.price);
        assert.equal(history.at(-1).type, "initial");
      });

      await t.step(
        "a tampered amount is refused with a clear error and nothing is charged",
        async () => {
          const before = (await a.get("/api/current_user")).json.user.balance;
          const r = await a.post("/api/reseller/place_order", {
            ...body,
            amount: 0.01,
            cost: 0.01,
            reseller: { id: bId, name: "Bee Reseller" },
          });
          assert.equal(r.status, 409);
          assert.match(r.json.error, /price of this item is now \$/);
          assert.equal((await a.get("/api/current_user")).json.user.balance, before);
          assert.equal(
            (await b.get("/api/current_user")).json.user.balance,
            0.5,
            "the client's reseller field changes nothing",
          );
        },
      );

      await t.step("a short balance gets 403 with the spec's text", async () => {
        const r = await b.post("/api/reseller/place_order", body);
        assert.equal(r.status, 403);
        assert.equal(r.json.error, "Insufficient balance in your account, please check.");
      });

      await t.step(
        "reseller B cannot read, refresh or change A's orders, history or password",
        async () => {
          assert.equal((await b.get(`/api/reseller/${aId}/orders`)).status, 404);
          assert.equal((await b.get(`/api/reseller/${aId}/balance_history`)).status, 404);
          assert.equal(
            (await b.post(`/api/reseller/order/${orderId}/refresh_status`, { denom: item.key }))
              .status,
            404,
          );
          assert.equal(
            (await b.post("/api/reseller/change_password", { id: aId, password: "hijacked-pass" }))
              .status,
            404,
          );
          assert.deepEqual((await b.get(`/api/reseller/${bId}/orders`)).json, []);
          assert.equal((await a.get(`/api/reseller/${aId}/orders`)).json[0].id, orderId);
        },
      );

      await t.step("refresh moves the order to successful once the supplier delivers", async () => {
        let status = "";
        for (let i = 0; i < 120 && status !== "successful"; i++) {
          const r = await a.post(`/api/reseller/order/${orderId}/refresh_status`, {
            denom: item.key,
          });
          assert.equal(r.status, 200, r.text);
          status = r.json.order.status;
          if (status !== "successful") await new Promise((ok) => setTimeout(ok, 250));
        }
        assert.equal(status, "successful");
        const all = await a.post("/api/reseller/orders/refresh_all_status");
        assert.equal(all.status, 200);
      });

      await t.step("a supplier refusal after the order refunds it", async () => {
        await simControl(server.url, "elitedias", "rejectOrders");
        const before = (await a.get("/api/current_user")).json.user.balance;
        const r = await a.post("/api/reseller/place_order", body);
        assert.equal(r.status, 201);
        let status = "new";
        for (let i = 0; i < 300 && status !== "error"; i++) {
          await new Promise((ok) => setTimeout(ok, 100));
          status = (await a.get(`/api/reseller/${aId}/orders`)).json.find((o: { id: string }) =>
            o.id === r.json.order.id
          ).status;
        }
        assert.equal(status, "error");
        assert.equal((await a.get("/api/current_user")).json.user.balance, before, "refunded");
        const history = (await a.get(`/api/reseller/${aId}/balance_history`)).json;
        assert.equal(history[0].type, "order_refunded");
        await simControl(server.url, "elitedias", "acceptOrders");
      });

      await t.step("changing the password ends the account's other sessions", async () => {
        const other = await signInDemoReseller(server.url);
        assert.equal(
          (await a.post("/api/reseller/change_password", { id: aId, password: "short" })).status,
          400,
        );
        for (const weak of ["reseller@demo.test", "demo-admin-pass", "Summer2025!"]) {
          const refused = await a.post("/api/reseller/change_password", {
            id: aId,
            password: weak,
            currentPassword: "demo-reseller-pass",
          });
          assert.equal(refused.status, 400, weak);
          assert.match(refused.json.error, /^(Password is too easy to guess|This password is)/);
        }
        const r = await a.post("/api/reseller/change_password", {
          id: aId,
          password: "a-new-long-password",
          currentPassword: "demo-reseller-pass",
        });
        assert.equal(r.status, 200);
        assert.equal((await other.get("/api/current_user")).status, 401, "the other session ended");
        assert.equal((await a.get("/api/current_user")).status, 200, "this one stays");
        const old = await new TestClient(server.url).post("/api/login_reseller", {
          username: "reseller@demo.test",
          password: "demo-reseller-pass",
        });
        assert.equal(old.status, 401);
      });

      await t.step(
        "malformed order bodies get 400, admins and strangers are kept out",
        async () => {
          assert.equal((await a.post("/api/reseller/place_order", "{nope")).status, 400);
          assert.equal(
            (await a.post("/api/reseller/place_order", { ...body, userid: "" })).status,
            400,
          );
          assert.equal(
            (await a.post("/api/create_order", { ...body, productID: "abc" })).status,
            400,
          );
          assert.equal(
            (await a.post("/api/reseller/place_order", body, {
              "idempotency-key": "x".repeat(300),
            })).status,
            400,
          );
          assert.equal(
            (await new TestClient(server.url).post("/api/reseller/place_order", body)).status,
            401,
          );
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
