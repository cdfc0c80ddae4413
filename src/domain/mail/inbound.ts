// Mail to the business arrives as raw MIME (RFC 5322): posted by the mail provider's inbound
// route (POST /api/inbound-email) or imported from a .eml file by an operator (CLI). mailparser
// reads it; the body is sanitized before it is stored, and again whenever it is shown.
import { Buffer } from "node:buffer";
import { type AddressObject, simpleParser } from "mailparser";
import type { Db } from "../../db/client.ts";
import { insertEmail } from "../../db/repositories/emails.ts";
import { escapeHtml } from "../../shared/html.ts";
import { ValidationError } from "../errors.ts";
import { sanitizeEmailHtml } from "./sanitize.ts";

/** The largest raw message accepted (attachments included; only the body is kept). */
export const MAX_INBOUND_BYTES = 10 * 1024 * 1024;

/** What the inbox keeps of a message. */
export interface InboundEmail {
  to: string;
  from: string;
  subject: string;
  date: Date;
  /** Sanitized HTML: the HTML part, else the text part as HTML. */
  html: string;
  messageId: string | null;
  inReplyTo: string | null;
  /** The thread's Message-IDs, space separated, oldest first. */
  references: string | null;
}

/** A Message-ID as headers carry it: "<left@right>", nothing that could break a header. */
const MESSAGE_ID = /^<[^<>\s]{1,900}>$/;

/** Keeps this many References, the newest ones, like mail clients do. */
const MAX_REFERENCES = 20;

function messageIdOrNull(value: string | undefined): string | null {
  const id = value?.trim();
  return id && MESSAGE_ID.test(id) ? id : null;
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.map((a) => a.text).filter(Boolean).join(", ").slice(0, 2000);
}

/** Reads a raw message; a message without any header this inbox shows is refused (400). */
export async function parseInboundEmail(
  raw: Uint8Array | string,
  now = new Date(),
): Promise<InboundEmail> {
  if (raw.length > MAX_INBOUND_BYTES) throw new ValidationError("The message is too large");
  let mail;
  try {
    mail = await simpleParser(typeof raw === "string" ? raw : Buffer.from(raw), {
      skipHtmlToText: true,
    });
  } catch {
    throw new ValidationError("Not an email message");
  }
  const to = addressText(mail.to);
  const from = addressText(mail.from);
  const subject = (mail.subject ?? "").replace(/\s+/g, " ").trim().slice(0, 998);
  const messageId = messageIdOrNull(mail.messageId);
  if (!from && !to && !subject && !messageId) throw new ValidationError("Not an email message");
  const references =
    (Array.isArray(mail.references) ? mail.references : (mail.references ?? "").split(/\s+/))
      .map((r) => messageIdOrNull(r))
      .filter((r): r is string => r !== null)
      .slice(-MAX_REFERENCES);
  const body = typeof mail.html === "string" && mail.html
    ? mail.html
    : mail.textAsHtml ?? (mail.text ? `<p>${escapeHtml(mail.text)}</p>` : "");
  // A sender chooses its Date header: one from the future would sit on top of the inbox.
  const date = mail.date && !Number.isNaN(mail.date.getTime()) && mail.date < now ? mail.date : now;
  return {
    to,
    from,
    subject,
    date,
    html: sanitizeEmailHtml(body).trim(),
    messageId,
    inReplyTo: messageIdOrNull(mail.inReplyTo),
    references: references.length ? references.join(" ") : null,
  };
}

/** What receiving a message did: stored, or already in the inbox (same Message-ID). */
export type ReceiveResult =
  | { stored: true; id: string; subject: string }
  | { stored: false; subject: string };

/** Parses a raw message and puts it in the inbox, once per Message-ID. */
export async function receiveInboundEmail(
  db: Db,
  raw: Uint8Array | string,
): Promise<ReceiveResult> {
  const email = await parseInboundEmail(raw);
  const row = await insertEmail(db, "inbox", email);
  return row
    ? { stored: true, id: row.id, subject: email.subject }
    : { stored: false, subject: email.subject };
}
