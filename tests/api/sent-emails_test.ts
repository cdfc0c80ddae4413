import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { insertSentEmail } from "../../src/db/repositories/emails.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[emails] admins read sent mail 10 a page, newest first; resellers and visitors cannot",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      for (let i = 1; i <= 12; i++) {
        await insertSentEmail(db, {
          to: `buyer${i}@example.com`,
          from: "TopUp <receipts@topup.test>",
          subject: `Receipt ${i}`,
          html: `<p>Receipt ${i}</p>`,
          messageId: `<m${i}@topup.test>`,
        });
        // Distinct dates, in the order written.
        await db.updateTable("emails").set({ date: new Date(Date.UTC(2025, 0, 1, 0, i)) })
          .where("message_id", "=", `<m${i}@topup.test>`).execute();
      }
    });
    const server = await startTestServer(tdb, { SEED_DEMO_CATALOGUE: "false" });
    try {
      await t.step("an admin gets page 1: the 10 newest", async () => {
        const admin = await signInDemoAdmin(server.url);
        const r = await admin.get("/api/sent-emails");
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.total, 12);
        assert.equal(r.json.pageSize, 10);
        assert.deepEqual(
          r.json.emails.map((e: { subject: string }) => e.subject),
          [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `Receipt ${i}`),
        );
        assert.deepEqual(r.json.emails[0], {
          id: r.json.emails[0].id,
          to: "buyer12@example.com",
          from: "TopUp <receipts@topup.test>",
          subject: "Receipt 12",
          date: "2025-01-01T00:12:00.000Z",
          body: "<p>Receipt 12</p>",
          messageId: "<m12@topup.test>",
        });
        const two = await admin.get("/api/sent-emails?page=2");
        assert.deepEqual(
          two.json.emails.map((e: { subject: string }) => e.subject),
          ["Receipt 2", "Receipt 1"],
        );
        assert.equal((await admin.get("/api/sent-emails?page=0")).status, 400);
        assert.equal((await admin.get("/api/sent-emails?page=abc")).status, 400);
      });

      await t.step("a reseller gets 403 and a visitor 401", async () => {
        const reseller = await signInDemoReseller(server.url);
        const refused = await reseller.get("/api/sent-emails");
        assert.equal(refused.status, 403, refused.text);
        assert.doesNotMatch(refused.text, /Receipt/);
        const anonymous = await new TestClient(server.url).get("/api/sent-emails");
        assert.equal(anonymous.status, 401);
        assert.doesNotMatch(anonymous.text, /Receipt/);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
