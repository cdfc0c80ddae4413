// Spec §2/§7 Emails: inbound mail through the provider route (shared secret), the inbox paged,
// searched and sorted on the server, a reply delivered to a real SMTP server in its thread, and
// audited deletes.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { startTestSmtp } from "../helpers/smtp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const SECRET = "inbound-secret-for-the-tests-0123456789";
const MAIL_FROM = "TopUp Support <support@topup.test>";

function message(fields: {
  n: number;
  from?: string;
  subject: string;
  date: string;
  references?: string;
  html?: string;
}): string {
  return [
    `From: ${fields.from ?? `Buyer ${fields.n} <buyer${fields.n}@example.com>`}`,
    "To: support@topup.test",
    `Subject: ${fields.subject}`,
    `Date: ${fields.date}`,
    `Message-ID: <in-${fields.n}@example.com>`,
    ...(fields.references ? [`References: ${fields.references}`] : []),
    "Content-Type: text/html; charset=utf-8",
    "",
    fields.html ?? `<p>Body ${fields.n}</p>`,
    "",
  ].join("\r\n");
}

Deno.test({
  name: "[emails] inbound mail, the inbox, a threaded SMTP reply and audited deletes",
  ...opts,
  async fn(t) {
    const smtp = await startTestSmtp();
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      SEED_DEMO_CATALOGUE: "false",
      SMTP_URL: smtp.url,
      MAIL_FROM,
      INBOUND_MAIL_SECRET: SECRET,
    });
    const provider = new TestClient(server.url);
    const inbound = (raw: string, headers: Record<string, string>) =>
      provider.request("POST", "/api/inbound-email", raw, {
        "content-type": "message/rfc822",
        ...headers,
      });
    const bearer = { authorization: `Bearer ${SECRET}` };
    // The operations watch may mail the admins an alert through the same SMTP server (a supplier
    // balance it could not read on a busy machine), recorded in Sent like any mail: this test
    // counts the replies.
    const isReply = (subject?: string) => !subject?.startsWith("Alert: ");
    const replies = () => smtp.received.filter((mail) => isReply(mail.subject));
    const sentReplies = async () =>
      ((await admin.get("/api/sent-emails")).json.emails as { subject: string; to: string }[])
        .filter((mail) => isReply(mail.subject));
    let admin: TestClient;
    try {
      admin = await signInDemoAdmin(server.url);
      const inboxTotal = async () => (await admin.get("/api/emails")).json.total;

      await t.step("a wrong or missing secret is a 401 and nothing is stored", async () => {
        const raw = message({ n: 0, subject: "Sneaky", date: "Mon, 3 Mar 2025 10:00:00 +0000" });
        const refusals: Record<string, string>[] = [
          {},
          { authorization: "Bearer wrong-secret" },
          { authorization: `Bearer ${SECRET}x` },
          { authorization: `Basic ${btoa("inbound:wrong")}` },
          { authorization: SECRET },
        ];
        for (const headers of refusals) {
          const r = await inbound(raw, headers);
          assert.equal(r.status, 401, `${JSON.stringify(headers)}: ${r.text}`);
        }
        assert.equal(await inboxTotal(), 0);
      });

      await t.step("the right secret stores a message once; garbage is a 400", async () => {
        const raw = message({
          n: 1,
          subject: "Where is my order?",
          date: "Mon, 3 Mar 2025 10:01:00 +0000",
          references: "<thread-start@example.com>",
        });
        const stored = await inbound(raw, bearer);
        assert.equal(stored.status, 201, stored.text);
        const again = await inbound(raw, bearer);
        assert.equal(again.status, 200, again.text);
        assert.equal(again.json.duplicate, true);
        const garbage = await inbound("this is not an email", bearer);
        assert.equal(garbage.status, 400, garbage.text);
        // Basic auth with the secret as password, raw MIME in a form field (SendGrid's shape).
        const form = new FormData();
        form.set(
          "email",
          message({ n: 2, subject: "Invoice request", date: "Mon, 3 Mar 2025 10:02:00 +0000" }),
        );
        const posted = await fetch(new URL("/api/inbound-email", server.url), {
          method: "POST",
          headers: { authorization: `Basic ${btoa(`inbound:${SECRET}`)}` },
          body: form,
        });
        assert.equal(posted.status, 201, await posted.text());
        assert.equal(await inboxTotal(), 2);
      });

      await t.step(
        "the inbox: 10 a page newest first, searched and sorted on the server",
        async () => {
          for (let n = 3; n <= 12; n++) {
            const r = await inbound(
              message({
                n,
                subject: n === 7 ? "Refund for INVOICE 7" : `Question ${n}`,
                date: `Mon, 3 Mar 2025 10:${String(n).padStart(2, "0")}:00 +0000`,
              }),
              bearer,
            );
            assert.equal(r.status, 201, r.text);
          }
          const one = await admin.get("/api/emails");
          assert.equal(one.status, 200, one.text);
          assert.equal(one.json.total, 12);
          assert.equal(one.json.pageSize, 10);
          assert.equal(one.json.emails.length, 10);
          assert.equal(one.json.emails[0].subject, "Question 12");
          assert.deepEqual(one.json.emails[9], {
            id: one.json.emails[9].id,
            to: "support@topup.test",
            from: `"Buyer 3" <buyer3@example.com>`,
            subject: "Question 3",
            date: "2025-03-03T10:03:00.000Z",
            body: "<p>Body 3</p>",
            messageId: "<in-3@example.com>",
          });
          const two = await admin.get("/api/emails?page=2");
          assert.deepEqual(two.json.emails.map((e: { subject: string }) => e.subject), [
            "Invoice request",
            "Where is my order?",
          ]);
          const invoice = await admin.get("/api/emails?search=invoice");
          assert.deepEqual(invoice.json.emails.map((e: { subject: string }) => e.subject), [
            "Refund for INVOICE 7",
            "Invoice request",
          ]);
          const byFrom = await admin.get("/api/emails?search=BUYER11%40");
          assert.deepEqual(byFrom.json.emails.map((e: { subject: string }) => e.subject), [
            "Question 11",
          ]);
          const bySubject = await admin.get("/api/emails?sort=subject&dir=asc");
          assert.deepEqual(
            bySubject.json.emails.slice(0, 3).map((e: { subject: string }) => e.subject),
            ["Invoice request", "Question 10", "Question 11"],
          );
          const oldest = await admin.get("/api/emails?sort=date&dir=asc&page=2");
          assert.deepEqual(oldest.json.emails.map((e: { subject: string }) => e.subject), [
            "Question 11",
            "Question 12",
          ]);
          const none = await admin.get("/api/emails?search=nothing-matches-this");
          assert.deepEqual([none.json.total, none.json.emails], [0, []]);
          assert.equal((await admin.get("/api/emails?sort=body")).status, 400);
          assert.equal((await admin.get("/api/emails?page=0")).status, 400);
        },
      );

      await t.step(
        "a reply reaches the SMTP server in the thread and is stored in Sent",
        async () => {
          const original = (await admin.get("/api/emails?search=Where")).json.emails[0];
          const r = await admin.post("/api/send-reply", {
            originalEmailId: original.id,
            replyBody: "  Your diamonds are on their way.\nSorry for the wait.  ",
            fromAddress: "someone-else@evil.test",
            toAddress: "victim@elsewhere.test",
            originalMessageId: "<forged@evil.test>",
            originalSubject: original.subject,
          });
          assert.equal(r.status, 201, r.text);
          assert.equal(replies().length, 1);
          const mail = replies()[0];
          assert.equal(
            mail.to && !Array.isArray(mail.to) ? mail.to.text : "",
            `"Buyer 1" <buyer1@example.com>`,
          );
          assert.equal(mail.from?.text, `"TopUp Support" <support@topup.test>`);
          assert.equal(mail.subject, "Re: Where is my order?");
          assert.equal(mail.inReplyTo, "<in-1@example.com>");
          assert.deepEqual(mail.references, ["<thread-start@example.com>", "<in-1@example.com>"]);
          assert.equal(mail.text?.trim(), "Your diamonds are on their way.\nSorry for the wait.");
          assert.equal(mail.messageId, r.json.messageId);

          const sent = await sentReplies();
          assert.equal(sent.length, 1);
          assert.equal(sent[0].subject, "Re: Where is my order?");
          assert.equal(sent[0].to, `"Buyer 1" <buyer1@example.com>`);
          const audit = await admin.get("/api/audit_log?action=email.reply");
          assert.equal(audit.json.total, 1);
          assert.equal(audit.json.entries[0].targetId, original.id);
        },
      );

      await t.step("a blank reply and a refused recipient send and store nothing", async () => {
        const original = (await admin.get("/api/emails?search=Question 5")).json.emails[0];
        const blank = await admin.post("/api/send-reply", {
          originalEmailId: original.id,
          replyBody: " \n\t ",
        });
        assert.equal(blank.status, 400);
        assert.equal(blank.json.error, "Reply content cannot be empty");

        const refused = await inbound(
          message({
            n: 13,
            from: "Gone <gone@refuse.test>",
            subject: "Bounce me",
            date: "Mon, 3 Mar 2025 10:13:00 +0000",
          }),
          bearer,
        );
        assert.equal(refused.status, 201);
        const failed = await admin.post("/api/send-reply", {
          originalEmailId: refused.json.id,
          replyBody: "Hello?",
        });
        assert.equal(failed.status, 502, failed.text);
        assert.match(failed.json.error, /550/);
        assert.equal(replies().length, 1);
        assert.equal((await sentReplies()).length, 1);
        const missing = await admin.post("/api/send-reply", {
          originalEmailId: crypto.randomUUID(),
          replyBody: "Hello?",
        });
        assert.equal(missing.status, 404);
      });

      await t.step("a delete removes the message, audited with its subject", async () => {
        const target = (await admin.get("/api/emails?search=Question 4")).json.emails[0];
        const r = await admin.post("/api/delete-email", { id: target.id });
        assert.equal(r.status, 200, r.text);
        const after = await admin.get("/api/emails?search=Question 4");
        assert.equal(after.json.total, 0);
        const audit = await admin.get("/api/audit_log?action=email.delete");
        assert.equal(audit.json.total, 1);
        assert.equal(audit.json.entries[0].targetId, target.id);
        assert.equal(audit.json.entries[0].before.subject, "Question 4");
        assert.equal((await admin.post("/api/delete-email", { id: target.id })).status, 404);
        assert.equal((await admin.post("/api/delete-email", { id: "nope" })).status, 400);
      });

      await t.step("a message over 1 MiB is taken, one over 10 MiB refused with 413", async () => {
        const before = await inboxTotal();
        const big = message({
          n: 90,
          subject: "Big attachment",
          date: "Mon, 3 Mar 2025 09:00:00 +0000",
          html: `<p>see attached</p><!-- ${"x".repeat(2 * 1024 * 1024)} -->`,
        });
        const taken = await inbound(big, bearer);
        assert.equal(taken.status, 201, taken.text);
        const huge = await inbound("x".repeat(10 * 1024 * 1024 + 1), bearer);
        assert.equal(huge.status, 413, huge.text);
        assert.equal(await inboxTotal(), before + 1);
      });

      await t.step("resellers get 403 and visitors 401, and nothing changes", async () => {
        const total = await inboxTotal();
        const some = (await admin.get("/api/emails")).json.emails[0];
        const reseller = await signInDemoReseller(server.url);
        for (const client of [reseller, new TestClient(server.url)]) {
          const status = client === reseller ? 403 : 401;
          assert.equal((await client.get("/api/emails")).status, status);
          assert.equal((await client.get("/api/sent-emails")).status, status);
          assert.equal(
            (await client.post("/api/send-reply", { originalEmailId: some.id, replyBody: "x" }))
              .status,
            status,
          );
          assert.equal((await client.post("/api/delete-email", { id: some.id })).status, status);
        }
        assert.equal(await inboxTotal(), total);
        assert.equal(replies().length, 1);
      });
    } finally {
      await server.stop();
      await smtp.stop();
      await tdb.drop();
    }
  },
});
