// Changing one's own password needs the current one, for a reseller
// (POST /api/reseller/change_password) and for an admin editing themselves (PUT /api/admin/{id}),
// and guessing it is throttled per account, also in parallel. An admin's reset of someone else's
// password needs nothing more and is audited.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInAdmin } from "../helpers/sessions.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { DEMO_ADMIN, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import {
  CURRENT_PASSWORD_FAILED,
  CURRENT_PASSWORD_MISSING,
  CURRENT_PASSWORD_PER_ACCOUNT,
} from "../../src/domain/auth/current-password.ts";
import { THROTTLED_MESSAGE } from "../../src/domain/auth/rate-limit.ts";
import type { AuditEntryDto } from "../../src/shared/admin-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PASSWORD = "a long test password";
const NEW_PASSWORD = "a brand new password";
const GUESSES = 50;

async function signInReseller(base: string, email: string, password: string) {
  const client = new TestClient(base);
  const r = await client.post("/api/login_reseller", { username: email, password });
  return { client, status: r.status, id: r.json?.user?._id as string };
}

Deno.test({
  name: "[own password] a change of one's own password needs the current one, throttled; " +
    "an admin's reset of another's does not and is audited",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      for (const name of ["Rita", "Gus"]) {
        await createTestReseller(db, {
          name: `${name} Reseller`,
          email: `${name.toLowerCase()}@test.example`,
          password: PASSWORD,
          balanceCents: 0,
        });
      }
      await createAdmin(db, {
        name: "Alice Admin",
        email: "alice@test.example",
        password: PASSWORD,
        rank: "Admin",
        createdBy: "test",
      });
    });
    const server = await startTestServer(tdb);
    try {
      await t.step("a reseller: none, a wrong and the right current password", async () => {
        const rita = await signInReseller(server.url, "rita@test.example", PASSWORD);
        const other = await signInReseller(server.url, "rita@test.example", PASSWORD);
        const change = (fields: Record<string, string>) =>
          rita.client.post("/api/reseller/change_password", {
            id: rita.id,
            password: NEW_PASSWORD,
            ...fields,
          });
        const none = await change({});
        assert.equal(none.status, 400, none.text);
        assert.equal(none.json.error, CURRENT_PASSWORD_MISSING);
        const wrong = await change({ currentPassword: "not the password" });
        assert.equal(wrong.status, 403, wrong.text);
        assert.equal(wrong.json.error, CURRENT_PASSWORD_FAILED);
        assert.equal((await other.client.get("/api/current_user")).status, 200, "nothing ended");
        assert.equal((await signInReseller(server.url, "rita@test.example", PASSWORD)).status, 200);

        const right = await change({ currentPassword: PASSWORD });
        assert.equal(right.status, 200, right.text);
        assert.equal((await other.client.get("/api/current_user")).status, 401);
        assert.equal((await signInReseller(server.url, "rita@test.example", PASSWORD)).status, 401);
        assert.equal(
          (await signInReseller(server.url, "rita@test.example", NEW_PASSWORD)).status,
          200,
        );
        // The right password cleared the wrong one: the account has its full allowance again.
        for (let i = 0; i < CURRENT_PASSWORD_PER_ACCOUNT.max; i++) {
          assert.equal((await change({ currentPassword: `guess ${i}` })).status, 403);
        }
        assert.equal((await change({ currentPassword: NEW_PASSWORD })).status, 429);
      });

      await t.step(`${GUESSES} parallel guesses: only the limit is checked`, async () => {
        const gus = await signInReseller(server.url, "gus@test.example", PASSWORD);
        const guesses = await Promise.all(
          Array.from(
            { length: GUESSES },
            (_, i) =>
              gus.client.post("/api/reseller/change_password", {
                id: gus.id,
                password: NEW_PASSWORD,
                currentPassword: `guess number ${i}`,
              }),
          ),
        );
        const statuses = guesses.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 403).length, CURRENT_PASSWORD_PER_ACCOUNT.max);
        assert.equal(
          statuses.filter((s) => s === 429).length,
          GUESSES - CURRENT_PASSWORD_PER_ACCOUNT.max,
        );
        const refused = guesses.find((r) => r.status === 429)!;
        assert.equal(refused.json.error, THROTTLED_MESSAGE);
        assert.equal(refused.headers.get("retry-after"), "900");
        // Over the limit even the right password is refused, so a guess cannot be confirmed.
        const right = await gus.client.post("/api/reseller/change_password", {
          id: gus.id,
          password: NEW_PASSWORD,
          currentPassword: PASSWORD,
        });
        assert.equal(right.status, 429, right.text);
        assert.equal((await signInReseller(server.url, "gus@test.example", PASSWORD)).status, 200);
      });

      const root = await signInAdmin(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password);
      const alice = await signInAdmin(server.url, "alice@test.example", PASSWORD);
      const aliceId = (await alice.client.get("/api/current_user")).json.user._id;
      const aliceForm = { name: "Alice Admin", email: "alice@test.example", rank: "Admin" };

      await t.step("an admin editing themselves: the same rules", async () => {
        const second = await signInAdmin(
          server.url,
          "alice@test.example",
          PASSWORD,
          alice.secret,
          1,
        );
        const edit = (fields: Record<string, string>) =>
          alice.client.request("PUT", `/api/admin/${aliceId}`, { ...aliceForm, ...fields });
        const none = await edit({ password: NEW_PASSWORD });
        assert.equal(none.status, 400, none.text);
        assert.equal(none.json.error, CURRENT_PASSWORD_MISSING);
        const wrong = await edit({ password: NEW_PASSWORD, currentPassword: "not the password" });
        assert.equal(wrong.status, 403, wrong.text);
        assert.equal(wrong.json.error, CURRENT_PASSWORD_FAILED);
        assert.equal((await second.client.get("/api/current_user")).status, 200, "nothing ended");
        const rename = await edit({ name: "Alice A.", password: "" });
        assert.equal(rename.status, 200, "other fields need no current password");
        const right = await edit({ password: NEW_PASSWORD, currentPassword: PASSWORD });
        assert.equal(right.status, 200, right.text);
        assert.equal((await alice.client.get("/api/current_user")).status, 200, "editor stays");
        assert.equal((await second.client.get("/api/current_user")).status, 401);
        const old = await new TestClient(server.url).post("/api/login_admin", {
          username: "alice@test.example",
          password: PASSWORD,
        });
        assert.equal(old.status, 401);
      });

      await t.step("an admin resets another's password without theirs, audited", async () => {
        const rita = (await root.client.get("/api/resellers?search=rita")).json[0];
        const reseller = await root.client.request("PUT", `/api/reseller/${rita._id}`, {
          name: rita.name,
          email: rita.email,
          markup: { mlbb: 0, mlbb_global: 0, mlbb_special: 0 },
          password: "reset by the admin",
        });
        assert.equal(reseller.status, 200, reseller.text);
        assert.equal(
          (await signInReseller(server.url, "rita@test.example", "reset by the admin")).status,
          200,
        );
        const admin = await root.client.request("PUT", `/api/admin/${aliceId}`, {
          ...aliceForm,
          password: "alice reset by root",
        });
        assert.equal(admin.status, 200, admin.text);
        assert.equal((await alice.client.get("/api/current_user")).status, 401);

        const audit = async (action: string, target: string) =>
          (await root.client.get(`/api/audit_log?action=${action}&target=${target}`)).json
            .entries as AuditEntryDto[];
        const [resetReseller] = await audit("reseller.update", rita._id);
        const [resetAdmin] = await audit("admin.update", aliceId);
        for (const entry of [resetReseller, resetAdmin]) {
          assert.equal(entry.actorName, "Demo Admin");
          assert.equal((entry.after as { passwordChanged: boolean }).passwordChanged, true);
          assert.doesNotMatch(JSON.stringify(entry), /reset by/);
        }
        const own = await audit("reseller.change_password", rita._id);
        assert.equal(own.length, 1, "the reseller's own change");
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
