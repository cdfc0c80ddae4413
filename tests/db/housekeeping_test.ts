import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { purgeExpired } from "../../src/domain/housekeeping.ts";
import { insertSession } from "../../src/db/repositories/sessions.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const backend = testBackend();

Deno.test({
  name: `[housekeeping:${backend}] expired bookkeeping goes, live rows and unfinished jobs stay`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const admin = await createAdmin(db, {
          name: "Ops",
          email: "ops@test.example",
          password: "long enough password",
          rank: "Admin",
          createdBy: "test",
        });
        const session = (idHash: string, expiresAt: Date) =>
          insertSession(db, {
            idHash,
            userType: "admin",
            userId: admin._id,
            stage: "active",
            expiresAt,
            ip: "",
          });
        await session("old", new Date(Date.now() - 1000));
        await session("live", new Date(Date.now() + 3600_000));
        await db.insertInto("login_attempts").values([
          { key: "stale", failures: 3, window_start: sql`now() - interval '2 days'` as never },
          { key: "fresh", failures: 1 },
        ]).execute();
        await db.insertInto("idempotency_keys").values([
          {
            scope: "s",
            key: "old",
            fingerprint: "f",
            created_at: sql`now() - interval '8 days'` as never,
          },
          { scope: "s", key: "new", fingerprint: "f" },
        ]).execute();
        await db.insertInto("jobs").values([
          { kind: "k", payload: "{}", done_at: sql`now() - interval '31 days'` as never },
          { kind: "k", payload: "{}", created_at: sql`now() - interval '60 days'` as never },
        ]).execute();

        const reseller = await createTestReseller(db, {
          name: "Hooked",
          email: "hooked@test.example",
          password: "long enough password",
          balanceCents: 0,
        });
        const event = (id: string, days: number) => ({
          id,
          reseller_id: reseller._id,
          type: "order.successful",
          order_id: "R1",
          body: "{}",
          created_at: sql`now() - make_interval(days => ${days})` as never,
        });
        await db.insertInto("webhook_events").values([
          event("00000000-0000-4000-8000-000000000001", 31),
          event("00000000-0000-4000-8000-000000000002", 29),
        ]).execute();
        await db.insertInto("webhook_deliveries").values({
          event_id: "00000000-0000-4000-8000-000000000001",
          reseller_id: reseller._id,
          url: "https://shop.example/h",
          attempt: 1,
          status_code: 200,
          duration_ms: 5,
        }).execute();
        await db.insertInto("supplier_balance_readings").values([91, 89].map((days) => ({
          vendor: "moogold",
          balance_cents: 100,
          currency: "USD",
          read_at: sql`now() - make_interval(days => ${days})` as never,
        }))).execute();

        const report = await purgeExpired(db);
        assert.deepEqual(report, {
          sessions: 1,
          loginAttempts: 1,
          idempotencyKeys: 1,
          jobs: 1,
          webhookEvents: 1,
          balanceReadings: 1,
        });
        const left = async (
          table:
            | "sessions"
            | "login_attempts"
            | "idempotency_keys"
            | "jobs"
            | "webhook_events"
            | "webhook_deliveries"
            | "supplier_balance_readings",
        ) =>
          Number(
            (await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()).n,
          );
        assert.equal(await left("sessions"), 1);
        assert.equal(await left("login_attempts"), 1);
        assert.equal(await left("idempotency_keys"), 1);
        assert.equal(await left("jobs"), 1, "an unfinished job is never purged, however old");
        assert.equal(await left("webhook_events"), 1);
        assert.equal(await left("webhook_deliveries"), 0, "deliveries go with their event");
        assert.equal(await left("supplier_balance_readings"), 1);
        assert.deepEqual(await purgeExpired(db), {
          sessions: 0,
          loginAttempts: 0,
          idempotencyKeys: 0,
          jobs: 0,
          webhookEvents: 0,
          balanceReadings: 0,
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});
