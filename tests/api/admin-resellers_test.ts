import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { findOrInsertConsumer } from "../../src/db/repositories/consumers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const STAFF_PASSWORD = "staff member password";
const RESELLER_PASSWORD = "reseller first password";

/** Signs an admin in through two-factor enrolment (a first sign-in) and returns the client. */
async function enrolAndSignIn(base: string, email: string, password: string) {
  const client = new TestClient(base);
  const login = await client.post("/api/login_admin", { username: email, password });
  assert.equal(login.status, 202, login.text);
  const verify = await client.post("/api/verify-totp", {
    code: generateTotpCode(login.json.secret),
  });
  assert.equal(verify.status, 200, verify.text);
  return client;
}

/** Signs a reseller in (this server creates resellers without two-factor). */
async function signInReseller(base: string, email: string, password: string) {
  const client = new TestClient(base);
  const login = await client.post("/api/login_reseller", { username: email, password });
  assert.equal(login.status, 200, login.text);
  return client;
}

type Client = TestClient;

/** A reseller's history as the admin's edit screen reads it, oldest first. */
async function historyOf(admin: Client, resellerId: string) {
  const r = await admin.get(`/api/reseller/${resellerId}/balance_history`);
  assert.equal(r.status, 200, r.text);
  return (r.json as { type: string; old: number; new: number }[]).reverse()
    .map(({ type, old, new: after }) => ({ type, old, new: after }));
}

/** A live reseller's balance in cents, from the admin list. */
async function balanceOf(admin: Client, resellerId: string): Promise<number> {
  const r = await admin.get("/api/resellers");
  const found = (r.json as { _id: string; balance: number }[]).find((x) => x._id === resellerId);
  assert.ok(found, `reseller ${resellerId} is listed`);
  return Math.round(found.balance * 100);
}

Deno.test({
  name:
    "[admin resellers] admins create, top up, deduct, edit and delete resellers; every move is a ledger row and an audit row",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    let consumerIds: string[] = [];
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createAdmin(db, {
        name: "Sam Staff",
        email: "staff@test.example",
        password: STAFF_PASSWORD,
        rank: "Staff",
        createdBy: "test",
      });
      consumerIds = await db.transaction().execute(async (trx) => [
        await findOrInsertConsumer(trx, {
          name: "Ana Buyer",
          email: "ana@buyer.example",
          phone: "+65 8111 2222",
        }),
        await findOrInsertConsumer(trx, {
          name: "Ben Shopper",
          email: "ben@shop.example",
          phone: "+65 9333 4444",
        }),
      ]);
    });
    let server: TestServer | undefined;
    let adminId = "";
    let resellerId = "";
    try {
      server = await startTestServer(tdb, {
        SEED_DEMO_CATALOGUE: "false",
        BALANCE_MOVE_MAX: "5000",
        RESELLER_2FA_DEFAULT: "false",
      });
      const base = server.url;
      const admin = await signInDemoAdmin(base);
      adminId = (await admin.get("/api/current_user")).json.user._id as string;

      await t.step(
        "create: rank Reseller, markups kept, an 'initial' row of the starting balance",
        async () => {
          const missing = await admin.post("/api/reseller", {
            name: "Kai Reseller",
            email: "kai@resell.example",
            password: RESELLER_PASSWORD,
            balance: 10,
            markup: { mlbb: 5, mlbb_global: 6 },
          });
          assert.equal(missing.status, 400, missing.text);
          assert.equal(missing.json.error, "Price Markup % is required for mlbb_special");

          const created = await admin.post("/api/reseller", {
            createdBy: "someone else",
            createdAt: "2020-01-01",
            rank: "superadmin",
            balanceHistory: [{ type: "top_up", old: 0, new: 1_000_000 }],
            name: "Kai Reseller",
            phone: "+65 8000 1234",
            email: "Kai@Resell.example",
            password: RESELLER_PASSWORD,
            balance: "1234.50",
            markup: { mlbb: 5, mlbb_global: "6.5", mlbb_special: 7, genshin: 3 },
            remarks: "met at the expo",
            disableDiscounts: true,
          });
          assert.equal(created.status, 201, created.text);
          resellerId = created.json._id;
          assert.equal(created.json.rank, "Reseller");
          assert.equal(created.json.createdBy, "Demo Admin");
          assert.equal(created.json.email, "kai@resell.example");
          assert.equal(created.json.balance, 1234.5);
          assert.deepEqual(created.json.markup, {
            mlbb: 5,
            mlbb_global: 6.5,
            mlbb_special: 7,
            genshin: 3,
          });
          assert.equal(created.json.disableDiscounts, true);
          assert.equal("password" in created.json, false);
          assert.deepEqual(await historyOf(admin, resellerId), [
            { type: "initial", old: 0, new: 1234.5 },
          ]);

          const duplicate = await admin.post("/api/reseller", {
            name: "kai reseller",
            email: "other@resell.example",
            password: RESELLER_PASSWORD,
            markup: { mlbb: 1, mlbb_global: 1, mlbb_special: 1 },
          });
          assert.equal(duplicate.status, 409, duplicate.text);
        },
      );

      await t.step("the list searches name, email or phone, case-insensitively", async () => {
        const byPhone = await admin.get("/api/resellers?search=8000%201234");
        assert.deepEqual(byPhone.json.map((r: { name: string }) => r.name), ["Kai Reseller"]);
        const byEmail = await admin.get("/api/resellers?search=RESELL.EX");
        assert.deepEqual(byEmail.json.map((r: { name: string }) => r.name), ["Kai Reseller"]);
        const all = await admin.get("/api/resellers");
        assert.equal(all.json.length, 2);
      });

      await t.step(
        "top-up and deduct write 'top_up' and 'deduct' rows naming the admin",
        async () => {
          const up = await admin.post(`/api/balance_topup/reseller/${resellerId}`, {
            amount: 25.25,
          });
          assert.equal(up.status, 200, up.text);
          assert.equal(up.json.oldBalance, 1234.5);
          assert.equal(up.json.newBalance, 1259.75);
          const down = await admin.post(`/api/balance_deduct/reseller/${resellerId}`, {
            amount: "0.75",
          });
          assert.equal(down.status, 200, down.text);
          assert.equal(down.json.newBalance, 1259);
          const rows = await historyOf(admin, resellerId);
          assert.deepEqual(rows.slice(1), [
            { type: "top_up", old: 1234.5, new: 1259.75 },
            { type: "deduct", old: 1259.75, new: 1259 },
          ]);
        },
      );

      await t.step("bad amounts are a 400 and change nothing", async () => {
        for (const amount of [0, -5, "0.001", 1.005, "abc", "5000.01", null, "1e3"]) {
          const r = await admin.post(`/api/balance_topup/reseller/${resellerId}`, { amount });
          assert.equal(r.status, 400, `${amount}: ${r.text}`);
        }
        const ceiling = await admin.post(`/api/balance_topup/reseller/${resellerId}`, {
          amount: 5000.01,
        });
        assert.equal(ceiling.json.error, "amount must be at most $5,000.00");
        assert.equal(await balanceOf(admin, resellerId), 125900);
      });

      await t.step(
        "a deduct below zero is refused with a clear message and changes nothing",
        async () => {
          const historyBefore = await historyOf(admin, resellerId);
          const r = await admin.post(`/api/balance_deduct/reseller/${resellerId}`, {
            amount: 1259.01,
          });
          assert.equal(r.status, 409, r.text);
          assert.equal(
            r.json.error,
            "Cannot deduct $1,259.01: Kai Reseller's balance is only $1,259.00",
          );
          assert.equal(await balanceOf(admin, resellerId), 125900);
          assert.deepEqual(await historyOf(admin, resellerId), historyBefore);
        },
      );

      await t.step("20 parallel deducts on one balance leave it exact", async () => {
        await admin.post(`/api/balance_deduct/reseller/${resellerId}`, { amount: 1134 });
        assert.equal(await balanceOf(admin, resellerId), 12500);
        const answers = await Promise.all(
          Array.from(
            { length: 20 },
            () => admin.post(`/api/balance_deduct/reseller/${resellerId}`, { amount: 7 }),
          ),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(statuses, [...Array(17).fill(200), ...Array(3).fill(409)]);
        assert.equal(await balanceOf(admin, resellerId), 12500 - 17 * 700);
        const deducts = (await historyOf(admin, resellerId)).filter((r) => r.type === "deduct");
        assert.equal(deducts.length, 2 + 17);
      });

      await t.step("a double-clicked top-up with one Idempotency-Key credits once", async () => {
        const before = await balanceOf(admin, resellerId);
        const key = { "Idempotency-Key": crypto.randomUUID() };
        const [a, b] = await Promise.all([
          admin.post(`/api/balance_topup/reseller/${resellerId}`, { amount: 10 }, key),
          admin.post(`/api/balance_topup/reseller/${resellerId}`, { amount: 10 }, key),
        ]);
        assert.equal(a.status, 200, a.text);
        assert.equal(b.status, 200, b.text);
        assert.deepEqual(a.json, b.json);
        const again = await admin.post(
          `/api/balance_topup/reseller/${resellerId}`,
          { amount: 10 },
          key,
        );
        assert.deepEqual(again.json, a.json);
        assert.equal(await balanceOf(admin, resellerId), before + 1000);
        const other = await admin.post(
          `/api/balance_topup/reseller/${resellerId}`,
          { amount: 11 },
          key,
        );
        assert.equal(other.status, 409, other.text);
        assert.equal(await balanceOf(admin, resellerId), before + 1000);
      });

      await t.step(
        "the edit's balance field cannot bypass the ledger; details and markups save",
        async () => {
          const current = (await admin.get("/api/resellers?search=kai")).json[0];
          const history = await historyOf(admin, resellerId);
          const edit = (body: Record<string, unknown>) =>
            admin.request("PUT", `/api/reseller/${resellerId}`, {
              name: current.name,
              phone: current.phone,
              email: current.email,
              remarks: current.remarks,
              disableDiscounts: current.disableDiscounts,
              markup: current.markup,
              ...body,
            });
          const raised = await edit({ name: "Kai Renamed", balance: current.balance + 500 });
          assert.equal(raised.status, 409, raised.text);
          assert.match(raised.json.error, /changes only through Top Up or Deduct/);
          assert.equal(await balanceOf(admin, resellerId), Math.round(current.balance * 100));
          assert.deepEqual(await historyOf(admin, resellerId), history);
          assert.equal((await admin.get("/api/resellers?search=kai")).json[0].name, "Kai Reseller");

          const saved = await edit({
            name: "Kai Renamed",
            balance: current.balance,
            markup: { mlbb: 4, mlbb_global: 4, mlbb_special: 4.25 },
            disableDiscounts: false,
          });
          assert.equal(saved.status, 200, saved.text);
          assert.equal(saved.json.name, "Kai Renamed");
          assert.deepEqual(saved.json.markup, { mlbb: 4, mlbb_global: 4, mlbb_special: 4.25 });
          assert.deepEqual(await historyOf(admin, resellerId), history);
        },
      );

      await t.step("an admin's password change ends the reseller's sessions", async () => {
        const reseller = await signInReseller(base, "kai@resell.example", RESELLER_PASSWORD);
        assert.equal((await reseller.get("/api/current_user")).status, 200);
        const current = (await admin.get("/api/resellers?search=kai")).json[0];
        const r = await admin.request("PUT", `/api/reseller/${resellerId}`, {
          ...current,
          password: "a brand new password",
        });
        assert.equal(r.status, 200, r.text);
        assert.equal((await reseller.get(`/api/reseller/${resellerId}/orders`)).status, 401);
      });

      await t.step("consumers: search and delete, audited", async () => {
        const found = await admin.get("/api/consumers?search=SHOP");
        assert.equal(found.status, 200, found.text);
        assert.deepEqual(found.json.consumers.map((c: { name: string }) => c.name), [
          "Ben Shopper",
        ]);
        assert.equal(found.json.total, 1);
        assert.equal((await admin.get("/api/consumers")).json.total, 2);
        const del = await admin.request("DELETE", `/api/user/${consumerIds[1]}`);
        assert.equal(del.status, 200, del.text);
        assert.equal((await admin.get("/api/consumers")).json.total, 1);
        assert.equal((await admin.request("DELETE", `/api/user/${consumerIds[1]}`)).status, 404);
      });

      await t.step(
        "a reseller session and a Staff session get 403 on every route and change nothing",
        async () => {
          const reseller = await signInDemoReseller(base);
          const staff = await enrolAndSignIn(base, "staff@test.example", STAFF_PASSWORD);
          const balance = await balanceOf(admin, resellerId);
          const markup = { mlbb: 1, mlbb_global: 1, mlbb_special: 1 };
          const calls: [string, string, unknown?][] = [
            ["GET", "/api/resellers"],
            ["POST", "/api/reseller", {
              name: "Eve",
              email: "eve@x.example",
              password: "long enough pass",
              markup,
            }],
            ["PUT", `/api/reseller/${resellerId}`, { name: "Eve", email: "eve@x.example", markup }],
            ["DELETE", `/api/reseller/${resellerId}`],
            ["POST", `/api/balance_topup/reseller/${resellerId}`, { amount: 1 }],
            ["POST", `/api/balance_deduct/reseller/${resellerId}`, { amount: 1 }],
            ["GET", `/api/reseller/${resellerId}/balance_history`],
            ["GET", "/api/consumers"],
            ["DELETE", `/api/user/${consumerIds[0]}`],
          ];
          for (const [who, client] of [["reseller", reseller], ["staff", staff]] as const) {
            for (const [method, path, body] of calls) {
              const r = await client.request(method, path, body);
              const expected = who === "reseller" && path.endsWith("/balance_history") ? 404 : 403;
              assert.equal(r.status, expected, `${who} ${method} ${path}: ${r.text}`);
            }
          }
          // The audit rows counted at the end show that none of these wrote one.
          assert.equal(await balanceOf(admin, resellerId), balance);
          assert.equal((await admin.get("/api/consumers")).json.total, 1);
        },
      );

      await t.step(
        "delete is soft: history stays, sessions end, the list no longer shows it",
        async () => {
          const reseller = await signInReseller(base, "kai@resell.example", "a brand new password");
          const history = await historyOf(admin, resellerId);
          const r = await admin.request("DELETE", `/api/reseller/${resellerId}`);
          assert.equal(r.status, 200, r.text);
          assert.equal((await reseller.get("/api/current_user")).status, 401);
          assert.deepEqual(await historyOf(admin, resellerId), history);
          assert.equal((await admin.get("/api/resellers?search=kai")).json.length, 0);
          assert.equal(
            (await admin.post(`/api/balance_topup/reseller/${resellerId}`, { amount: 1 })).status,
            404,
          );
          assert.equal((await admin.request("DELETE", `/api/reseller/${resellerId}`)).status, 404);
        },
      );

      await server.stop();
      server = undefined;

      await t.step(
        "each mutation has one audit row naming the admin, and none holds a secret",
        async () => {
          const rows = await withHandle(
            tdb,
            (db) =>
              db.selectFrom("audit_log").selectAll().where("actor_type", "=", "admin").orderBy("id")
                .execute(),
          );
          const count = (action: string) => rows.filter((r) => r.action === action).length;
          // The refused calls (bad amounts, short deducts, other sessions) wrote none.
          assert.deepEqual(
            Object.fromEntries(
              [
                "reseller.create",
                "reseller.top_up",
                "reseller.deduct",
                "reseller.update",
                "reseller.delete",
                "consumer.delete",
              ].map((a) => [a, count(a)]),
            ),
            {
              "reseller.create": 1,
              "reseller.top_up": 2,
              "reseller.deduct": 19,
              "reseller.update": 2,
              "reseller.delete": 1,
              "consumer.delete": 1,
            },
          );
          assert.ok(rows.every((r) => r.actor_id === adminId && r.actor_name === "Demo Admin"));
          const topUp = rows.find((r) => r.action === "reseller.top_up")!;
          assert.equal(topUp.target_id, resellerId);
          assert.deepEqual(topUp.before, { balanceCents: 123450 });
          assert.deepEqual(topUp.after, { balanceCents: 125975, amountCents: 2525 });
          const [rename, password] = rows.filter((r) => r.action === "reseller.update");
          assert.equal((rename.before as { name: string }).name, "Kai Reseller");
          assert.equal((rename.after as { name: string }).name, "Kai Renamed");
          assert.equal((password.after as { passwordChanged: boolean }).passwordChanged, true);
          const consumer = rows.find((r) => r.action === "consumer.delete")!;
          assert.equal(consumer.target_id, consumerIds[1]);
          assert.equal((consumer.before as { email: string }).email, "ben@shop.example");

          const text = JSON.stringify(
            await withHandle(tdb, (db) => db.selectFrom("audit_log").selectAll().execute()),
          );
          for (
            const secret of [
              RESELLER_PASSWORD,
              "a brand new password",
              "scrypt$",
              "password_hash",
              "totp_secret",
            ]
          ) {
            assert.equal(text.includes(secret), false, `audit log contains ${secret}`);
          }
          const moves = await withHandle(
            tdb,
            (db) =>
              db.selectFrom("balance_history").select("actor").where("reseller_id", "=", resellerId)
                .execute(),
          );
          assert.ok(moves.every((m) => m.actor === "Demo Admin"));
        },
      );
    } finally {
      await server?.stop();
      await tdb.drop();
    }
  },
});
