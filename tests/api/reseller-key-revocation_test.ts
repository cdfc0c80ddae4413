// What whoever knew a reseller's password may have made (API keys, a webhook
// URL) dies with an admin's password reset; an admin can revoke every key at once; each key's
// first use of the day and every revocation are in the audit log.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const KAI_PASSWORD = "kai's first password";
const KAI_NEW_PASSWORD = "kai's brand new password";

async function signInKai(base: string, password: string): Promise<TestClient> {
  const client = new TestClient(base);
  const login = await client.post("/api/login_reseller", {
    username: "kai@test.example",
    password,
  });
  assert.equal(login.status, 200, login.text);
  return client;
}

function keyClient(base: string, secret: string): TestClient {
  return new TestClient(base, { authorization: `Bearer ${secret}` });
}

interface AuditRow {
  action: string;
  actorType: string;
  actorName: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

Deno.test({
  name:
    "[reseller keys] a password reset revokes the keys and disables the webhook; Revoke all keys; key uses audited once a day",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    let kaiId = "";
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      kaiId = (await createTestReseller(db, {
        name: "Kai Reseller",
        email: "kai@test.example",
        password: KAI_PASSWORD,
        balanceCents: 10_000,
      }))._id;
    });
    // 50 connections: on PostgreSQL the parallel key uses reach the database all at once.
    const server = await startTestServer(tdb, { DATABASE_POOL_SIZE: "50" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const audit = async (action: string): Promise<AuditRow[]> => {
        const r = await admin.get(`/api/audit_log?action=${action}&target=${kaiId}`);
        assert.equal(r.status, 200, r.text);
        return r.json.entries;
      };
      const kai = await signInKai(server.url, KAI_PASSWORD);
      const newKey = async (session: TestClient, name: string) => {
        const r = await session.post("/api/reseller/api_keys", { name });
        assert.equal(r.status, 201, r.text);
        return { id: r.json.key.id as string, secret: r.json.secret as string };
      };
      const shop = await newKey(kai, "Shop bot");
      const spare = await newKey(kai, "Spare");
      const hookUrl = "http://127.0.0.1:9/hooks/topup";
      // Set with the session: the keys' first uses are the steps' own.
      const set = await kai.request("PUT", "/api/reseller/webhook", { url: hookUrl });
      assert.equal(set.status, 200, set.text);

      await t.step("50 parallel first uses of a key write one audit row for the day", async () => {
        const client = keyClient(server.url, shop.secret);
        assert.deepEqual(await audit("api_key.use"), [], "neither key was used yet");
        const uses = await Promise.all(
          Array.from({ length: 50 }, () => client.get("/api/v1/balance")),
        );
        assert.deepEqual([...new Set(uses.map((r) => r.status))], [200]);
        await client.get("/api/v1/balance");
        const rows = await audit("api_key.use");
        assert.equal(rows.length, 1, JSON.stringify(rows));
        assert.deepEqual(
          [rows[0].actorType, rows[0].actorName, rows[0].targetId],
          ["reseller", "Kai Reseller", kaiId],
        );
        assert.deepEqual(rows[0].after, {
          keyId: shop.id,
          name: "Shop bot",
          prefix: shop.secret.slice(0, 12),
          day: new Date().toISOString().slice(0, 10),
        });
        const listed = (await kai.get("/api/reseller/api_keys")).json.keys;
        assert.ok(listed.find((k: { id: string }) => k.id === shop.id).lastUsedAt);
      });

      await t.step(
        "an admin's password reset revokes every key and disables the webhook",
        async () => {
          const reset = await admin.request("PUT", `/api/reseller/${kaiId}`, {
            name: "Kai Reseller",
            phone: "",
            email: "kai@test.example",
            remarks: "",
            disableDiscounts: false,
            markup: { mlbb: 5, mlbb_global: 5, mlbb_special: 5 },
            password: KAI_NEW_PASSWORD,
          });
          assert.equal(reset.status, 200, reset.text);
          for (const key of [shop, spare]) {
            const r = await keyClient(server.url, key.secret).get("/api/v1/balance");
            assert.equal(r.status, 401, `${key.id}: ${r.text}`);
          }
          const keys = (await admin.get(`/api/reseller/${kaiId}/api_keys`)).json.keys;
          assert.ok(keys.every((k: { revokedAt: string | null }) => k.revokedAt !== null));
          const kaiAgain = await signInKai(server.url, KAI_NEW_PASSWORD);
          assert.deepEqual((await kaiAgain.get("/api/reseller/webhook")).json, {
            url: null,
            updatedAt: null,
          });

          const revoked = await audit("api_key.revoke");
          assert.deepEqual(
            revoked.map((r) => [r.actorName, r.after?.keyId, r.after?.reason]).sort(),
            [
              ["Demo Admin", shop.id, "password_reset"],
              ["Demo Admin", spare.id, "password_reset"],
            ].sort(),
          );
          const [disabled] = await audit("reseller.webhook.disable");
          assert.deepEqual([disabled.actorName, disabled.before, disabled.after], [
            "Demo Admin",
            { url: hookUrl },
            { url: null, reason: "password_reset" },
          ]);

          // Setting a URL again makes a new signing secret: the old one may be known.
          const again = await kaiAgain.request("PUT", "/api/reseller/webhook", { url: hookUrl });
          assert.equal(again.status, 200, again.text);
          assert.match(again.json.secret, /^whsec_/);
        },
      );

      await t.step(
        "Revoke all keys: admins only, every live key at once, each audited",
        async () => {
          const kaiAgain = await signInKai(server.url, KAI_NEW_PASSWORD);
          const one = await newKey(kaiAgain, "Bot one");
          const two = await newKey(kaiAgain, "Bot two");
          const byReseller = await kaiAgain.request("DELETE", `/api/reseller/${kaiId}/api_keys`);
          assert.equal(byReseller.status, 403, byReseller.text);
          assert.equal(
            (await keyClient(server.url, one.secret).get("/api/v1/balance")).status,
            200,
          );

          const all = await admin.request("DELETE", `/api/reseller/${kaiId}/api_keys`);
          assert.equal(all.status, 200, all.text);
          assert.deepEqual(
            all.json.revoked.map((k: { id: string }) => k.id).sort(),
            [one.id, two.id].sort(),
          );
          for (const key of [one, two]) {
            assert.equal(
              (await keyClient(server.url, key.secret).get("/api/v1/balance")).status,
              401,
            );
          }
          const again = await admin.request("DELETE", `/api/reseller/${kaiId}/api_keys`);
          assert.deepEqual(again.json, { revoked: [] }, "nothing left to revoke");
          const unknown = await admin.request(
            "DELETE",
            `/api/reseller/${crypto.randomUUID()}/api_keys`,
          );
          assert.equal(unknown.status, 404, unknown.text);

          const reasons = (await audit("api_key.revoke"))
            .filter((r) => r.after?.reason === "revoke_all")
            .map((r) => r.after?.keyId).sort();
          assert.deepEqual(reasons, [one.id, two.id].sort());
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
