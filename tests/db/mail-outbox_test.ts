import assert from "node:assert/strict";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { createJobRunner } from "../../src/domain/jobs.ts";
import { enqueueMail, mailJobHandlers, SEND_MAIL_JOB } from "../../src/domain/mail/outbox.ts";
import { listMailbox, replySender, replyToEmail } from "../../src/domain/mail/mailbox.ts";
import { receiveInboundEmail } from "../../src/domain/mail/inbound.ts";
import { UpstreamError } from "../../src/domain/errors.ts";
import {
  createMailer,
  type Mailer,
  type OutgoingMail,
} from "../../src/integrations/mail/mailer.ts";
import type { Db } from "../../src/db/client.ts";

const SENT_PAGE_ONE = { page: 1, search: "", sort: "date", dir: "desc" } as const;

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
  assert.equal(
    (await listMailbox(db, "sent", SENT_PAGE_ONE)).total,
    0,
    "nothing is sent inside the caller",
  );

  assert.equal(await runner(db, mailer).runOnce(), 1);
  assert.equal(mailer.sent.length, 1);
  const [sent] = mailer.sent;
  assert.equal(sent.to, MESSAGE.to);
  assert.match(sent.messageId, /^<[0-9a-f-]{36}@shop\.example>$/);

  const page = await listMailbox(db, "sent", SENT_PAGE_ONE);
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
  assert.equal((await listMailbox(db, "sent", SENT_PAGE_ONE)).total, 1);
});

mailTest("a failed send records nothing and the job stays to run again", async (db) => {
  const mailer = countingSink();
  mailer.failing = true;
  await db.transaction().execute((trx) => enqueueMail(trx, MESSAGE));
  assert.equal(await runner(db, mailer).runOnce(), 1);
  assert.equal((await listMailbox(db, "sent", SENT_PAGE_ONE)).total, 0);
  const job = await db.selectFrom("jobs").select(["done_at", "last_error"])
    .executeTakeFirstOrThrow();
  assert.equal(job.done_at, null);
  assert.match(job.last_error ?? "", /SMTP 421/);
});

mailTest(
  "a reply in demo mode goes through the sink in its thread, to Sent, audited",
  async (db) => {
    const mailer = countingSink();
    const received = await receiveInboundEmail(
      db,
      "From: Ana <ana@example.com>\r\nTo: support@shop.example\r\nSubject: Re: Late order\r\n" +
        "Message-ID: <q2@example.com>\r\nReferences: <q1@shop.example>\r\n\r\nStill waiting",
    );
    assert.ok(received.stored);
    const actor = { type: "admin" as const, id: crypto.randomUUID(), name: "Ops" };
    mailer.failing = true;
    await assert.rejects(
      replyToEmail(db, mailer, actor, { originalEmailId: received.id, replyBody: "Sorry" }),
      (e: Error) => e instanceof UpstreamError && e.message === "SMTP 421 try again later",
    );
    assert.equal((await listMailbox(db, "sent", SENT_PAGE_ONE)).total, 0);

    mailer.failing = false;
    const reply = await replyToEmail(db, mailer, actor, {
      originalEmailId: received.id,
      replyBody: "Sorry <b>Ana</b>, done.",
    });
    assert.equal(mailer.sent.length, 1);
    assert.deepEqual(mailer.sent[0], {
      from: "TopUp <support@shop.example>",
      to: `"Ana" <ana@example.com>`,
      subject: "Re: Late order",
      text: "Sorry <b>Ana</b>, done.",
      html: '<div style="white-space:pre-wrap">Sorry &lt;b&gt;Ana&lt;/b&gt;, done.</div>',
      messageId: reply.messageId,
      inReplyTo: "<q2@example.com>",
      references: "<q1@shop.example> <q2@example.com>",
    });
    assert.match(reply.messageId ?? "", /^<[0-9a-f-]{36}@shop\.example>$/);
    const sent = await listMailbox(db, "sent", SENT_PAGE_ONE);
    assert.deepEqual(sent.emails.map((e) => [e.from, e.to, e.subject, e.messageId]), [
      [
        "TopUp <support@shop.example>",
        `"Ana" <ana@example.com>`,
        "Re: Late order",
        reply.messageId,
      ],
    ]);
    const stored = await db.selectFrom("emails").select(["in_reply_to", "references_header"])
      .where("id", "=", reply.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, {
      in_reply_to: "<q2@example.com>",
      references_header: "<q1@shop.example> <q2@example.com>",
    });
    const audit = await db.selectFrom("audit_log").select(["action", "actor_name", "target_id"])
      .where("action", "like", "email.%").execute();
    assert.deepEqual(audit, [{ action: "email.reply", actor_name: "Ops", target_id: received.id }]);
  },
);

Deno.test("[mail] a reply goes from the address the customer wrote to, on the shop's own domain", () => {
  assert.equal(replySender("support@shop.example", FROM), "TopUp <support@shop.example>");
  assert.equal(
    replySender("Help <Help@Shop.Example>, ana@example.com", FROM),
    "TopUp <Help@Shop.Example>",
  );
  assert.equal(replySender("ana@example.com", FROM), FROM, "another domain: the shop's sender");
  assert.equal(replySender("receipts@shop.example", FROM), FROM);
  assert.equal(replySender("", FROM), FROM);
  assert.equal(
    replySender("support@shop.example", "receipts@shop.example"),
    "support@shop.example",
  );
});
