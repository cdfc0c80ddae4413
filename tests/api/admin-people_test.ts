import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import type { TestClient } from "../helpers/client.ts";
import { signInAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { consumerAt, paymentBody } from "../helpers/consumer-payments.ts";
import { DEMO_ADMIN } from "../../src/domain/auth/bootstrap.ts";
import { formatBusinessDate } from "../../src/shared/business-time.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { AdminDto, AuditEntryDto, RestrictedUserDto } from "../../src/shared/admin-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PASSWORD = "a long test password";

/** Every audit row, through the superadmin's Audit view pages. */
async function allAudit(superadmin: TestClient, query = ""): Promise<AuditEntryDto[]> {
  const entries: AuditEntryDto[] = [];
  for (let page = 1;; page++) {
    const r = await superadmin.get(`/api/audit_log?page=${page}${query}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.pageSize, 20);
    assert.ok(r.json.entries.length <= 20);
    entries.push(...r.json.entries);
    if (entries.length >= r.json.total) return entries;
  }
}

Deno.test({
  name: "[admins] rank rules, restricted users, settings and the audit log over HTTP",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const secrets: string[] = [];
    const ids: Record<string, string> = {};
    try {
      const demo = await signInAdmin(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password);
      secrets.push(demo.secret);
      const root = demo.client;
      const me = (await root.get("/api/current_user")).json.user;
      ids.root = me._id;

      await t.step("a superadmin creates admins of each rank (POST /api/user)", async () => {
        for (
          const [key, name, rank] of [
            ["super2", "Second Super", "superadmin"],
            ["admin", "Alice Admin", "admin "],
            ["staff", "Sam Staff", "Staff"],
          ]
        ) {
          const r = await root.post("/api/user", {
            name,
            email: `${key}@ops.test`,
            rank,
            password: PASSWORD,
            remarks: `the ${key}`,
            createdBy: "someone else",
            createdAt: "1999-01-01",
          });
          assert.equal(r.status, 201, r.text);
          assert.equal(r.json.rank, rank.trim() === "admin" ? "Admin" : rank);
          assert.equal(r.json.createdBy, "Demo Admin", "createdBy is the signed-in admin");
          assert.equal(r.json.password, undefined);
          ids[key] = r.json._id;
        }
      });

      const alice = await signInAdmin(server.url, "admin@ops.test", PASSWORD);
      const admin = alice.client;
      secrets.push(alice.secret);

      await t.step(
        "create refusals: bad rank, short, guessable or published password, taken email",
        async () => {
          const base = { name: "X", email: "x@ops.test", rank: "Admin", password: PASSWORD };
          const cases: [unknown, number, RegExp][] = [
            [{ ...base, rank: "Boss" }, 400, /rank: must be one of Admin, Staff, superadmin/],
            [{ ...base, password: "short" }, 400, /Password must be at least 8 characters/],
            [{ ...base, password: "Winter2025!" }, 400, /^Password is too easy to guess\. /],
            [{ ...base, password: "demo-admin-pass" }, 400, /^This password is published/],
            [{ ...base, email: "not-an-email" }, 400, /email/],
            [{ ...base, email: "STAFF@ops.test" }, 409, /already exists/],
          ];
          for (const [body, status, message] of cases) {
            const r = await root.post("/api/user", body);
            assert.equal(r.status, status, r.text);
            assert.match(r.json.error, message);
          }
        },
      );

      await t.step("GET /api/admins searches name, email or role, any case", async () => {
        const names = async (q: string) =>
          ((await admin.get(`/api/admins?search=${encodeURIComponent(q)}`)).json as AdminDto[])
            .map((a) => a.name).sort();
        assert.deepEqual(await names(""), [
          "Alice Admin",
          "Demo Admin",
          "Sam Staff",
          "Second Super",
        ]);
        assert.deepEqual(await names("SUPERADMIN"), ["Demo Admin", "Second Super"]);
        assert.deepEqual(await names("staff"), ["Sam Staff"]);
        assert.deepEqual(await names("ops.TEST"), ["Alice Admin", "Sam Staff", "Second Super"]);
        assert.deepEqual(await names("alice"), ["Alice Admin"]);
        assert.deepEqual(await names("%"), [], "% is matched literally");
      });

      const edit = (id: string, changes: Record<string, unknown> = {}) => ({
        name: "Sam Staff",
        email: "staff@ops.test",
        rank: "Staff",
        remarks: "",
        password: "",
        ...(id === ids.super2
          ? { name: "Second Super", email: "super2@ops.test", rank: "superadmin" }
          : {}),
        ...changes,
      });

      await t.step("an Admin cannot touch a superadmin nor grant the rank", async () => {
        const put = await admin.request("PUT", `/api/admin/${ids.super2}`, edit(ids.super2));
        assert.equal(put.status, 403, put.text);
        assert.equal(put.json.error, "Only a superadmin can change a superadmin");
        const del = await admin.request("DELETE", `/api/admin/${ids.super2}`);
        assert.equal(del.status, 403, del.text);
        assert.equal(del.json.error, "Only a superadmin can delete a superadmin");
        const grant = await admin.request(
          "PUT",
          `/api/admin/${ids.staff}`,
          edit(ids.staff, { rank: "superadmin" }),
        );
        assert.equal(grant.status, 403, grant.text);
        assert.equal(grant.json.error, "Only a superadmin can grant the superadmin rank");
        const create = await admin.post("/api/user", {
          name: "Sneaky",
          email: "sneaky@ops.test",
          rank: "superadmin",
          password: PASSWORD,
        });
        assert.equal(create.status, 403, create.text);
        const all = (await root.get("/api/admins")).json as AdminDto[];
        assert.equal(all.find((a) => a._id === ids.super2)?.rank, "superadmin");
        assert.equal(all.find((a) => a._id === ids.staff)?.rank, "Staff");
        assert.equal(all.length, 4);
      });

      await t.step("the superadmin rank is read-only, even for a superadmin", async () => {
        const r = await root.request(
          "PUT",
          `/api/admin/${ids.super2}`,
          edit(ids.super2, { rank: "Admin" }),
        );
        assert.equal(r.status, 403, r.text);
        assert.equal(r.json.error, "The superadmin rank cannot be changed");
        const ok = await root.request(
          "PUT",
          `/api/admin/${ids.super2}`,
          edit(ids.super2, { remarks: "backup" }),
        );
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.json.remarks, "backup");
      });

      await t.step("nobody deletes or demotes themselves", async () => {
        const del = await admin.request("DELETE", `/api/admin/${ids.admin}`);
        assert.equal(del.status, 403, del.text);
        assert.equal(del.json.error, "You cannot delete your own account");
        const demote = await admin.request("PUT", `/api/admin/${ids.admin}`, {
          name: "Alice Admin",
          email: "admin@ops.test",
          rank: "Staff",
        });
        assert.equal(demote.status, 403, demote.text);
        assert.equal(demote.json.error, "You cannot change your own rank");
        const rootDel = await root.request("DELETE", `/api/admin/${ids.root}`);
        assert.equal(rootDel.status, 403, rootDel.text);
        assert.equal((await admin.get("/api/current_user")).json.user.rank, "Admin");
      });

      await t.step("a new password ends the admin's other sessions, not the editor's", async () => {
        const staff = await signInAdmin(server.url, "staff@ops.test", PASSWORD);
        secrets.push(staff.secret);
        assert.equal((await staff.client.get("/api/current_user")).status, 200);
        const r = await admin.request(
          "PUT",
          `/api/admin/${ids.staff}`,
          edit(ids.staff, { password: "a brand new password" }),
        );
        assert.equal(r.status, 200, r.text);
        assert.equal((await staff.client.get("/api/current_user")).status, 401);

        const second = await signInAdmin(
          server.url,
          "admin@ops.test",
          PASSWORD,
          alice.secret,
          1,
        );
        const own = await admin.request("PUT", `/api/admin/${ids.admin}`, {
          name: "Alice Admin",
          email: "admin@ops.test",
          rank: "Admin",
          password: "alice's new password",
          currentPassword: PASSWORD,
        });
        assert.equal(own.status, 200, own.text);
        assert.equal((await admin.get("/api/current_user")).status, 200, "editor stays");
        assert.equal((await second.client.get("/api/current_user")).status, 401);
      });

      await t.step("an Admin edits and deletes a Staff", async () => {
        const r = await admin.request(
          "PUT",
          `/api/admin/${ids.staff}`,
          edit(ids.staff, { name: "Sam S." }),
        );
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.name, "Sam S.");
        assert.equal((await admin.request("DELETE", `/api/admin/${ids.staff}`)).status, 200);
        assert.equal((await admin.request("DELETE", `/api/admin/${ids.staff}`)).status, 404);
        assert.equal((await admin.request("DELETE", "/api/admin/not-a-uuid")).status, 404);
      });

      let restricted: RestrictedUserDto;
      await t.step("a restricted user is added, listed, and a duplicate refused", async () => {
        const r = await admin.post("/api/restricted_mlbb_user", {
          userID: " 11111111 ",
          serverID: 1111,
          createdBy: "forged",
          createdAt: "1999-01-01",
        });
        assert.equal(r.status, 201, r.text);
        restricted = r.json;
        assert.equal(restricted.userID, "11111111");
        assert.equal(restricted.serverID, "1111");
        assert.equal(restricted.createdBy, "Alice Admin");
        const list = (await root.get("/api/restricted_mlbb_users")).json as RestrictedUserDto[];
        assert.deepEqual(list, [restricted]);

        const dup = await root.post("/api/restricted_mlbb_user", {
          userID: "11111111",
          serverID: "1111",
        });
        assert.equal(dup.status, 409, dup.text);
        assert.equal(
          dup.json.error,
          `This user was already added on ${
            formatBusinessDate(restricted.createdAt)
          } by Alice Admin`,
          "the date in Singapore time, as the console shows it",
        );
        assert.equal(dup.json.createdAt, restricted.createdAt);
        for (const body of [{ userID: "", serverID: "1" }, { userID: "1" }]) {
          assert.equal((await root.post("/api/restricted_mlbb_user", body)).status, 400);
        }
      });

      await t.step("ten parallel adds of one account make one row", async () => {
        const answers = await Promise.all(
          Array.from(
            { length: 10 },
            (_, i) =>
              (i % 2 ? root : admin).post("/api/restricted_mlbb_user", {
                userID: "77777777",
                serverID: "7777",
              }),
          ),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(statuses, [201, ...Array(9).fill(409)], JSON.stringify(statuses));
        for (const a of answers.filter((a) => a.status === 409)) {
          assert.match(a.json.error, /^This user was already added on .+ by (Alice|Demo) Admin$/);
        }
        const list = (await root.get("/api/restricted_mlbb_users")).json as RestrictedUserDto[];
        assert.equal(list.filter((u) => u.userID === "77777777").length, 1);
        const row = list.find((u) => u.userID === "77777777")!;
        assert.equal(
          (await root.request("DELETE", `/api/restricted_mlbb_user/${row._id}`)).status,
          200,
        );
        const again = await root.request("DELETE", `/api/restricted_mlbb_user/${row._id}`);
        assert.equal(again.status, 404, again.text);
      });

      await t.step("settings save: fxRateMarkUp is stored and read back", async () => {
        const r = await admin.request("PUT", "/api/settings", { fxRateMarkUp: 3.5 });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual((await root.get("/api/settings")).json, { fxRateMarkUp: 3.5 });
      });

      await t.step("only a superadmin reads the audit log, filtered, 20 a page", async () => {
        const refused = await admin.get("/api/audit_log");
        assert.equal(refused.status, 403, refused.text);
        assert.equal(refused.json.error, "Only a superadmin can read the audit log");
        for (let i = 0; i < 12; i++) {
          const r = await admin.post("/api/restricted_mlbb_user", {
            userID: `9000000${i}`,
            serverID: "9000",
          });
          assert.equal(r.status, 201, r.text);
        }
        const all = await allAudit(root);
        const first = (await root.get("/api/audit_log?page=1")).json;
        assert.equal(first.entries.length, 20);
        assert.deepEqual(first.entries, all.slice(0, 20), "pages are slices, newest first");
        const actions = new Set(all.map((e) => `${e.actorName}: ${e.action}`));
        for (
          const expected of [
            "Demo Admin: admin.create",
            "Demo Admin: admin.update",
            "Alice Admin: admin.update",
            "Alice Admin: admin.delete",
            "Alice Admin: restricted_mlbb_user.create",
            "Demo Admin: restricted_mlbb_user.delete",
            "Alice Admin: settings.update",
          ]
        ) assert.ok(actions.has(expected), `${expected} in ${[...actions]}`);

        const settings = all.find((e) => e.action === "settings.update")!;
        assert.deepEqual(settings.before, { fxRateMarkUp: 0 });
        assert.deepEqual(settings.after, { fxRateMarkUp: 3.5 });
        const deleted = all.find((e) => e.action === "admin.delete")!;
        assert.equal(deleted.targetId, ids.staff);
        assert.deepEqual(deleted.before, {
          name: "Sam S.",
          email: "staff@ops.test",
          rank: "Staff",
          remarks: "",
        });
        const pw = all.find((e) =>
          e.action === "admin.update" && (e.after as { passwordChanged: boolean }).passwordChanged
        );
        assert.ok(pw, "a password change is recorded as a flag");

        const byAction = await allAudit(root, "&action=restricted_mlbb_user");
        assert.deepEqual(
          [...new Set(byAction.map((e) => e.action))].sort(),
          ["restricted_mlbb_user.create", "restricted_mlbb_user.delete"],
        );
        // The Action filter takes the words the Audit view shows as well as the codes.
        const byWords = await allAudit(root, "&action=Restricted%20user");
        assert.deepEqual(byWords, byAction);
        const removed = await allAudit(root, "&action=user%20removed");
        assert.deepEqual(
          [...new Set(removed.map((e) => e.action))],
          ["restricted_mlbb_user.delete"],
        );
        const byActor = await allAudit(root, "&actor=alice");
        assert.ok(byActor.length > 0 && byActor.every((e) => e.actorName === "Alice Admin"));
        const byTarget = await allAudit(root, `&target=${ids.staff}`);
        assert.deepEqual(
          byTarget.map((e) => e.action).reverse(),
          ["admin.create", "admin.update", "admin.update", "admin.delete"],
        );
      });

      await t.step("no audit row holds a password, a hash or a TOTP secret", async () => {
        const text = JSON.stringify(await allAudit(root));
        for (
          const secret of [
            PASSWORD,
            "a brand new password",
            "alice's new password",
            "scrypt$",
            ...secrets,
          ]
        ) assert.ok(!text.includes(secret), `audit log contains ${secret}`);
      });

      await t.step(
        "the restricted list changes the package for reseller and consumer verify and payment",
        async () => {
          const reseller = await signInDemoReseller(server.url);
          const games = (await root.get("/api/admin/games")).json as GameDto[];
          const special = games.find((g) => g.supplierName === "mlbb")!.packages
            .find((p) => p.name === "mlbb_special")!;
          const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
          const price = centsToDollars(
            computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
          );
          const buyer = consumerAt(server.url, "198.51.100.7");
          const account = { userid: "44444444", serverid: "4444" };
          const verify = () => reseller.post("/api/resellers/verify_id/mlbb", account);
          const pay = () =>
            buyer.post("/api/payment/hitpay/mlbb", {
              ...paymentBody(item.nameSupplier, price),
              userid: "11111111",
              serverid: "1111",
            });

          // 11111111/1111 is restricted (above); 12121212/1212 is not yet.
          const fresh = { userid: "12121212", serverid: "1212" };
          const verifyFresh = () => reseller.post("/api/resellers/verify_id/mlbb", fresh);
          const consumerVerify = () => buyer.post("/api/consumers/verify_id/mlbb", fresh);
          assert.deepEqual((await verifyFresh()).json.choice, { kind: "ok", package: "mlbb" });
          assert.deepEqual((await consumerVerify()).json.choice, { kind: "ok", package: "mlbb" });
          const refused = await buyer.post("/api/payment/hitpay/mlbb", {
            ...paymentBody(item.nameSupplier, price),
            ...fresh,
          });
          assert.equal(refused.status, 409, refused.text);
          assert.match(refused.json.error, /different package/);

          const add = await root.post("/api/restricted_mlbb_user", {
            userID: fresh.userid,
            serverID: fresh.serverid,
          });
          assert.equal(add.status, 201, add.text);
          for (const check of [verifyFresh, consumerVerify]) {
            assert.deepEqual((await check()).json.choice, { kind: "ok", package: "mlbb_special" });
          }
          const paid = await buyer.post("/api/payment/hitpay/mlbb", {
            ...paymentBody(item.nameSupplier, price),
            ...fresh,
          });
          assert.equal(paid.status, 201, paid.text);
          assert.equal((await pay()).status, 201, "the account restricted earlier pays too");

          assert.equal(
            (await root.request("DELETE", `/api/restricted_mlbb_user/${add.json._id}`)).status,
            200,
          );
          assert.deepEqual((await verifyFresh()).json.choice, { kind: "ok", package: "mlbb" });
          assert.deepEqual((await consumerVerify()).json.choice, { kind: "ok", package: "mlbb" });
          // Only global valid: the list does not turn mlbb_global into mlbb_special.
          assert.deepEqual((await verify()).json.choice, { kind: "ok", package: "mlbb_global" });
        },
      );

      await t.step("two superadmins deleting each other: the last superadmin stays", async () => {
        const second = await signInAdmin(server.url, "super2@ops.test", PASSWORD);
        const [a, b] = await Promise.all([
          root.request("DELETE", `/api/admin/${ids.super2}`),
          second.client.request("DELETE", `/api/admin/${ids.root}`),
        ]);
        const statuses = [a.status, b.status].sort();
        assert.equal(statuses[0], 200, `${a.text} ${b.text}`);
        assert.ok([401, 409].includes(statuses[1]), `${a.text} ${b.text}`);
        const survivor = a.status === 200 ? root : second.client;
        const left = (await survivor.get("/api/admins?search=superadmin")).json as AdminDto[];
        assert.equal(left.length, 1);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
