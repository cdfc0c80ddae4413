import assert from "node:assert/strict";
import { parseInboundEmail } from "../../src/domain/mail/inbound.ts";
import { sanitizeEmailHtml } from "../../src/domain/mail/sanitize.ts";
import { EMAIL_FRAME_CSP, emailFrameDocument } from "../../src/shared/email-frame.ts";
import { ValidationError } from "../../src/domain/errors.ts";
import { HOSTILE_EMAILS } from "../helpers/hostile-emails.ts";

/** What no sanitized body may contain, whatever the trick. */
const FORBIDDEN: [string, RegExp][] = [
  ["script element", /<\s*script/i],
  ["event handler", /\son[a-z]+\s*=/i],
  ["javascript: URL", /javascript\s*:/i],
  ["CSS expression", /expression\s*\(/i],
  ["CSS url()", /url\s*\(/i],
  ["remote host", /hostile\.test/i],
  ["meta", /<\s*meta/i],
  ["base", /<\s*base/i],
  ["link", /<\s*link/i],
  ["style element", /<\s*style/i],
  ["frame", /<\s*i?frame/i],
  ["object or embed", /<\s*(object|embed)/i],
  ["form control", /<\s*(form|input|button|textarea|select)/i],
  ["svg", /<\s*svg/i],
  ["media", /<\s*(video|audio)/i],
];

for (const email of HOSTILE_EMAILS) {
  Deno.test(`[email sanitize] ${email.subject}: parsed, and nothing active or remote is left`, async () => {
    const parsed = await parseInboundEmail(email.raw);
    assert.equal(parsed.subject, email.subject);
    assert.equal(parsed.from, `"Mallory" <mallory@hostile.test>`);
    for (const [what, pattern] of FORBIDDEN) {
      assert.doesNotMatch(parsed.html, pattern, `${what} left in: ${parsed.html}`);
    }
  });
}

Deno.test("[email sanitize] harmless content survives: text, links, inline images, plain styles", () => {
  const html = sanitizeEmailHtml(
    `<p style="color:#123456;font-weight:bold">Order <b>TU-1</b></p>` +
      `<a href="https://example.com/help">help</a><a href="mailto:a@example.com">mail</a>` +
      `<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><img src="cid:logo@x" alt="cid">` +
      `<table><tr><td colspan="2">cell</td></tr></table>`,
  );
  assert.equal(
    html,
    `<p style="color:#123456;font-weight:bold">Order <b>TU-1</b></p>` +
      `<a href="https://example.com/help" target="_blank" rel="noopener noreferrer">help</a>` +
      `<a href="mailto:a@example.com" target="_blank" rel="noopener noreferrer">mail</a>` +
      `<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo" /><img src="cid:logo@x" alt="cid" />` +
      `<table><tr><td colspan="2">cell</td></tr></table>`,
  );
});

Deno.test("[email sanitize] a link's target and rel are the sanitizer's, not the sender's", () => {
  assert.equal(
    sanitizeEmailHtml(`<a href="https://example.com" target="_top" rel="opener">x</a>`),
    `<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>`,
  );
});

Deno.test("[email parse] headers, threading and a text-only body", async () => {
  const parsed = await parseInboundEmail(
    [
      "From: Ana <ana@example.com>",
      "To: Support <support@topup.test>, ops@topup.test",
      "Subject: =?UTF-8?B?T3JkZXIg4pyTIGRlbGF5ZWQ=?=",
      "Date: Tue, 4 Mar 2025 08:30:00 +0800",
      "Message-ID: <m2@example.com>",
      "In-Reply-To: <m1@topup.test>",
      "References: <m0@example.com> <m1@topup.test>",
      "",
      "Line one <b>not bold</b>",
      "",
    ].join("\r\n"),
  );
  assert.equal(parsed.from, `"Ana" <ana@example.com>`);
  assert.equal(parsed.to, `"Support" <support@topup.test>, ops@topup.test`);
  assert.equal(parsed.subject, "Order ✓ delayed");
  assert.equal(parsed.date.toISOString(), "2025-03-04T00:30:00.000Z");
  assert.equal(parsed.messageId, "<m2@example.com>");
  assert.equal(parsed.inReplyTo, "<m1@topup.test>");
  assert.equal(parsed.references, "<m0@example.com> <m1@topup.test>");
  assert.match(parsed.html, /Line one &lt;b&gt;not bold&lt;\/b&gt;/);
});

Deno.test("[email parse] a Date from the future is the time it arrived", async () => {
  const now = new Date("2025-05-01T00:00:00Z");
  const parsed = await parseInboundEmail(
    "From: a@example.com\r\nSubject: s\r\nDate: Fri, 1 Jan 2100 00:00:00 +0000\r\n\r\nx",
    now,
  );
  assert.equal(parsed.date.toISOString(), now.toISOString());
});

Deno.test("[email parse] bytes that are not a message are refused", async () => {
  for (const raw of ["", "\r\n\r\n", "just some text without headers", "\x00\x01\x02\xff"]) {
    await assert.rejects(parseInboundEmail(raw), ValidationError, JSON.stringify(raw));
  }
});

Deno.test("[email frame] the body sits under a policy that allows no script, no remote load", () => {
  assert.equal(
    EMAIL_FRAME_CSP,
    "default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:",
  );
  const doc = emailFrameDocument("<p>hi</p>");
  assert.ok(
    doc.startsWith(
      `<!DOCTYPE html><html><head><meta charset="utf-8">` +
        `<meta http-equiv="Content-Security-Policy" content="${EMAIL_FRAME_CSP}">`,
    ),
  );
  assert.ok(doc.endsWith("<body><p>hi</p></body></html>"));
});
