import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestSuppliers } from "../helpers/suppliers.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import type { Db } from "../../src/db/client.ts";
import { insertAdmin } from "../../src/db/repositories/admins.ts";
import { enqueueJob } from "../../src/db/repositories/jobs.ts";
import { SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { runOperationsWatch, scheduleOperationsWatch } from "../../src/domain/operations/watch.ts";
import { sendAlert } from "../../src/domain/operations/alerts.ts";
import {
  readAlertSettings,
  saveAlertSettings,
} from "../../src/domain/operations/alert-settings.ts";
import { ConflictError, ValidationError } from "../../src/domain/errors.ts";
import { retryFailedJobAsOperator } from "../../src/domain/admin/failed-jobs.ts";
import { operationsStatus } from "../../src/domain/operations/status.ts";
import { formatBusinessDate } from "../../src/shared/business-time.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };
const actor = { type: "cli" as const, name: "ops" };

/** The alert mails queued, by recipient, whose subject is `subject`. */
async function alertMails(db: Db, subject: string): Promise<string[]> {
  const jobs = await db.selectFrom("jobs").select("payload").where("kind", "=", SEND_MAIL_JOB)
    .orderBy("id").execute();
  return jobs.filter((j) => j.payload.subject === subject).map((j) => String(j.payload.to));
}

/** As if `condition`'s last alert went out `minutes` ago. */
async function age(db: Db, condition: string, minutes: number): Promise<void> {
  await db.updateTable("alert_conditions")
    .set({ last_sent_at: sql`now() - make_interval(mins => ${minutes})` as never })
    .where("condition", "=", condition).execute();
}

async function addAdmins(db: Db): Promise<void> {
  for (const [name, rank] of [["Ann", "superadmin"], ["Bob", "Admin"], ["Sue", "Staff"]]) {
    await insertAdmin(db, {
      name,
      email: `${name.toLowerCase()}@test.example`,
      password_hash: "x",
      rank,
      created_by: "test",
    });
  }
}

const LOW = "Alert: MooGold balance 40.00 USD is below 100.00 USD";

/** Runs `fn` on a fresh database with three admins (one Staff) and the supplier simulators. */
async function withAdminsAndSuppliers(
  fn: (db: Db, sim: ReturnType<typeof startTestSuppliers>) => Promise<void>,
): Promise<void> {
  const tdb = await createTestDatabase(backend);
  const sim = startTestSuppliers();
  try {
    await withHandle(tdb, async (db) => {
      await addAdmins(db);
      await fn(db, sim);
    });
  } finally {
    await sim.close();
    await tdb.drop();
  }
}

Deno.test({
  name:
    `[operations:${backend}] a balance below its threshold mails the admins once an hour, not once per check`,
  ...opts,
  async fn() {
    await withAdminsAndSuppliers(async (db, sim) => {
      sim.moogold.setBalance("40.00");
      const first = await runOperationsWatch(db, sim.suppliers);
      assert.deepEqual(first.alerts, ["supplier-balance:moogold"]);
      assert.deepEqual(
        first.readings.map((r) => r.ok && [r.vendor, r.balanceCents, r.currency]),
        [["moogold", 4000, "USD"], ["elitedias", 100000, "SGD"]],
      );
      await runOperationsWatch(db, sim.suppliers);
      await runOperationsWatch(db, sim.suppliers);
      assert.deepEqual(
        await alertMails(db, LOW),
        ["ann@test.example", "bob@test.example"],
        "one mail to each admin (Staff does not open the console), whatever the checks",
      );

      await age(db, "supplier-balance:moogold", 59);
      await runOperationsWatch(db, sim.suppliers);
      assert.equal((await alertMails(db, LOW)).length, 2, "still within the hour");

      await age(db, "supplier-balance:moogold", 60);
      await runOperationsWatch(db, sim.suppliers);
      assert.equal((await alertMails(db, LOW)).length, 4, "again after the hour");

      sim.moogold.setBalance("500.00");
      await age(db, "supplier-balance:moogold", 120);
      assert.deepEqual((await runOperationsWatch(db, sim.suppliers)).alerts, []);

      const status = await operationsStatus(db);
      const moogold = status.balances.find((b) => b.vendor === "moogold")!;
      assert.equal(moogold.balance, 500);
      assert.equal(moogold.low, false);
      assert.equal(moogold.trend.length, 1, "one point an hour");
      assert.deepEqual(
        status.alerts.map((a) => [a.condition, a.recipients]),
        [["supplier-balance:moogold", 2], ["supplier-balance:moogold", 2]],
      );
      assert.equal(
        await db.selectFrom("supplier_balance_readings").select(
          sql<number>`count(*)::int`.as("n"),
        )
          .executeTakeFirstOrThrow().then((r) => r.n),
        12,
        "each check stores both suppliers' readings",
      );
    });
  },
});

Deno.test({
  name:
    `[operations:${backend}] a balance that cannot be read alerts once it has gone unread for ten minutes`,
  ...opts,
  async fn() {
    await withAdminsAndSuppliers(async (db, sim) => {
      const UNREADABLE = "Alert: MooGold balance cannot be read";
      // Read once, then MooGold answers every call with an error.
      assert.deepEqual((await runOperationsWatch(db, sim.suppliers)).alerts, []);
      sim.moogold.knobs.errorRate = 1;
      const blip = await runOperationsWatch(db, sim.suppliers);
      assert.equal(blip.readings[0].ok, false);
      assert.deepEqual(blip.alerts, [], "a failed read just after a good one is a passing outage");

      await db.updateTable("supplier_balance_readings")
        .set({ read_at: sql`now() - make_interval(mins => 11)` as never }).execute();
      assert.deepEqual(
        (await runOperationsWatch(db, sim.suppliers)).alerts,
        ["supplier-balance-unreadable:moogold"],
      );
      await runOperationsWatch(db, sim.suppliers);
      assert.deepEqual(
        await alertMails(db, UNREADABLE),
        ["ann@test.example", "bob@test.example"],
        "once an hour, not once per check",
      );
      const lastRead = await db.selectFrom("supplier_balance_readings").select("read_at")
        .where("vendor", "=", "moogold").orderBy("read_at", "desc").executeTakeFirstOrThrow();
      const mail = await db.selectFrom("jobs").select("payload").where("kind", "=", SEND_MAIL_JOB)
        .orderBy("id", "desc").executeTakeFirstOrThrow();
      assert.match(
        String(mail.payload.text),
        new RegExp(
          `It was last read at ${formatBusinessDate(lastRead.read_at)} \\(Singapore time\\)\\.`,
        ),
        "the time as the consoles show it, in the business's zone",
      );

      sim.moogold.knobs.errorRate = 0;
      await age(db, "supplier-balance-unreadable:moogold", 61);
      assert.deepEqual((await runOperationsWatch(db, sim.suppliers)).alerts, []);
    });
  },
});

Deno.test({
  name:
    `[operations:${backend}] instances checking at once send one alert; one watch job waits at a time`,
  ...opts,
  async fn() {
    await withAdminsAndSuppliers(async (db) => {
      const alert = { condition: "job-backlog", subject: "Backlog", lines: ["many"] };
      const sent = await Promise.all(Array.from({ length: 6 }, () => sendAlert(db, alert)));
      assert.equal(sent.filter(Boolean).length, 1);
      assert.equal((await alertMails(db, "Alert: Backlog")).length, 2);

      await Promise.all(Array.from({ length: 4 }, () => scheduleOperationsWatch(db)));
      const watches = await db.selectFrom("jobs").select("id")
        .where("kind", "=", "operations.watch").execute();
      assert.equal(watches.length, 1);
      // A failed round cannot be retried while another waits.
      const failed = await db.insertInto("jobs").values({
        kind: "operations.watch",
        payload: "{}",
        attempts: 5,
        max_attempts: 5,
        failed_at: new Date(),
      }).returning("id").executeTakeFirstOrThrow();
      await assert.rejects(
        retryFailedJobAsOperator(db, { id: Number(failed.id), actor }),
        (e) =>
          e instanceof ConflictError &&
          e.message === "A round of the operations watch is already queued",
      );
    });
  },
});

Deno.test({
  name: `[operations:${backend}] failed jobs, a job backlog and failing webhooks each alert once`,
  ...opts,
  async fn() {
    await withAdminsAndSuppliers(async (db, sim) => {
      await saveAlertSettings(db, {
        moogoldMinBalance: 0,
        elitediasMinBalance: 0,
        jobBacklogLimit: 2,
        webhookFailureLimit: 3,
      }, actor);
      await assert.rejects(
        saveAlertSettings(
          db,
          { ...await readAlertSettings(db), moogoldMinBalance: 1.234 },
          actor,
        ),
        (e) =>
          e instanceof ValidationError && e.message === "moogoldMinBalance: at most 2 decimals",
      );
      assert.equal(
        (await readAlertSettings(db)).jobBacklogLimit,
        2,
        "a refused save changes nothing",
      );
      // Three jobs due (one over the limit of 2), and a mail job that failed two hours ago.
      await db.transaction().execute(async (trx) => {
        for (const to of ["a@x.example", "b@x.example", "c@x.example"]) {
          await enqueueJob(trx, { kind: "test.noop", payload: { to } });
        }
      });
      await db.insertInto("jobs").values({
        kind: SEND_MAIL_JOB,
        payload: JSON.stringify({ to: "gone@x.example" }),
        attempts: 5,
        max_attempts: 5,
        failed_at: new Date(Date.now() - 2 * 3600_000),
        last_error: "SMTP down",
      }).execute();
      const reseller = await createTestReseller(db, {
        name: "Shop",
        email: "shop@test.example",
        password: "long enough password",
        balanceCents: 1000,
      });
      const event = await db.insertInto("webhook_events").values({
        reseller_id: reseller._id,
        type: "order.successful",
        order_id: "R1",
        body: "{}",
      }).returning("id").executeTakeFirstOrThrow();
      for (const [attempt, status] of [[1, 200], [2, 500], [3, 502], [4, 500]]) {
        await db.insertInto("webhook_deliveries").values({
          event_id: event.id,
          reseller_id: reseller._id,
          url: "https://shop.example/h",
          attempt,
          status_code: status,
          duration_ms: 5,
          at: new Date(Date.now() - (10 - attempt) * 1000),
        }).execute();
      }
      const first = await runOperationsWatch(db, sim.suppliers);
      assert.deepEqual(first.alerts.sort(), [
        "failed-jobs",
        "job-backlog",
        `webhooks-failing:${reseller._id}`,
      ]);
      assert.deepEqual(await alertMails(db, "Alert: Webhooks to reseller Shop keep failing"), [
        "ann@test.example",
        "bob@test.example",
      ]);
      assert.deepEqual((await runOperationsWatch(db, sim.suppliers)).alerts, []);

      // After the hour the failed-jobs alert waits for a new failure; the rest still hold.
      for (const condition of first.alerts) await age(db, condition, 61);
      assert.deepEqual((await runOperationsWatch(db, sim.suppliers)).alerts.sort(), [
        "job-backlog",
        `webhooks-failing:${reseller._id}`,
      ]);

      const status = await operationsStatus(db);
      assert.equal(status.failedJobs.count, 1);
      assert.equal(status.failedJobs.latest[0].lastError, "SMTP down");
      const noop = status.jobs.find((j) => j.kind === "test.noop")!;
      assert.equal(noop.due, 3);
      assert.ok(noop.oldestDueSeconds !== null && noop.oldestDueSeconds >= 0);
    });
  },
});
