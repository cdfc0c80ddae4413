import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";
import { enqueueMail, mailJobHandlers, SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { listSentMail } from "../../src/domain/mail/sent.ts";
import {
  createMailer,
  type Mailer,
  type OutgoingMail,
} from "../../src/integrations/mail/mailer.ts";
import type { Db } from "../../src/db/client.ts";

const backend = testBackend();
const FROM = "TopUp <receipts@shop.example>";
const MESSAGE = {
  to: "ana@example.com",
  subject: "Payment received for order 1",
  text: "Thank you for your purchase.",
  html: "<p>Thank you for your purchase.</p>",
};

/** The demo sink mailer, counting what passes through it; `failing` makes sends throw. */
function countingSink(): Mailer & { sent: OutgoingMail[]; failing: boolean } {
  const sink = createMailer({ mode: "sink", from: FROM });
  const counted = {
    ...sink,
    sent: [] as OutgoingMail[],
    failing: false,
    async send(mail: OutgoingMail) {
      if (counted.failing) throw new Error("SMTP 421 try again later");
      await sink.send(mail);
      counted.sent.push(mail);
    },
  };
  return counted;
}

function runner(db: Db, mailer: Mailer) {
  return createJobRunner(db, mailJobHandlers(db, () => mailer), {
    worker: "test",
    log: () => {},
  });
}

/** A test on a fresh database of the current backend. */
function mailTest(rule: string, body: (db: Db) => Promise<void>): void {
  Deno.test({
    name: `[mail:${backend}] ${rule}`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const tdb = await createTestDatabase(backend);
      try {
        await withHandle(tdb, body);
      } finally {
        await tdb.drop();
      }
    },
  });
}

mailTest("a queued mail is sent through the sink and recorded in Sent once", async (db) => {
  const mailer = countingSink();
  await db.transaction().execute((trx) => enqueueMail(trx, MESSAGE));
  // A rolled-back transaction takes its mail with it.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await enqueueMail(trx, { ...MESSAGE, subject: "never sent" });
      throw new Error("rollback");
    }),
  );
  assert.equal((await listSentMail(db, 1)).total, 0, "nothing is sent inside the caller");

  assert.equal(await runner(db, mailer).runOnce(), 1);
  assert.equal(mailer.sent.length, 1);
  const [sent] = mailer.sent;
  assert.equal(sent.to, MESSAGE.to);
  assert.match(sent.messageId, /^<[0-9a-f-]{36}@shop\.example>$/);

  const page = await listSentMail(db, 1);
  assert.equal(page.total, 1);
  assert.deepEqual({ ...page.emails[0], id: "", date: "" }, {
    id: "",
    date: "",
    to: MESSAGE.to,
    from: FROM,
    subject: MESSAGE.subject,
    body: MESSAGE.html,
    messageId: sent.messageId,
  });

  // The same job running again (a crash after sending) records nothing new.
  const job = await db.selectFrom("jobs").select("payload").where("kind", "=", SEND_MAIL_JOB)
    .executeTakeFirstOrThrow();
  await mailJobHandlers(db, () => mailer)[SEND_MAIL_JOB](job.payload);
  assert.equal((await listSentMail(db, 1)).total, 1);
});

mailTest("a failed send records nothing and the job stays to run again", async (db) => {
  const mailer = countingSink();
  mailer.failing = true;
  await db.transaction().execute((trx) => enqueueMail(trx, MESSAGE));
  assert.equal(await runner(db, mailer).runOnce(), 1);
  assert.equal((await listSentMail(db, 1)).total, 0);
  const job = await db.selectFrom("jobs").select(["done_at", "last_error"])
    .executeTakeFirstOrThrow();
  assert.equal(job.done_at, null);
  assert.match(job.last_error ?? "", /SMTP 421/);
});
