// The admin Emails screen (spec §2): the Inbox and Sent folders, 10 a page, searched and sorted
// on the server; a reply sent by SMTP in the thread of the message it answers; deletes audited.
import type { Db } from "../../db/client.ts";
import {
  type EmailListRow,
  type EmailSortColumn,
  findEmail,
  insertEmail,
  listEmails,
  softDeleteEmail,
} from "../../db/repositories/emails.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { Mailer } from "../../integrations/mail/mailer.ts";
import {
  type EmailDto,
  type EmailFolder,
  type EmailSortKey,
  type EmailsPage,
  EMPTY_REPLY_TEXT,
} from "../../shared/email-types.ts";
import { escapeHtml } from "../../shared/html.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { NotFoundError, UpstreamError, ValidationError } from "../errors.ts";
import { messageIdFor } from "./outbox.ts";
import { sanitizeEmailHtml } from "./sanitize.ts";

/** Admin console page size for emails (spec §9). */
export const EMAILS_PAGE_SIZE = 10;

const SORT_COLUMNS: Record<EmailSortKey, EmailSortColumn> = {
  to: "to_address",
  from: "from_address",
  subject: "subject",
  date: "date",
};

/** What a page of a folder asks for. */
export interface MailboxQuery {
  page: number;
  search: string;
  sort: EmailSortKey;
  dir: "asc" | "desc";
}

/** A stored message as the console shows it; the body is sanitized again on the way out. */
function presentEmail(row: EmailListRow): EmailDto {
  return {
    id: row.id,
    to: row.to_address,
    from: row.from_address,
    subject: row.subject,
    date: row.date.toISOString(),
    body: sanitizeEmailHtml(row.body_html),
    messageId: row.message_id,
  };
}

/** One page of `folder`: matches of the search (To, From or Subject), in the asked order. */
export async function listMailbox(
  db: Db,
  folder: EmailFolder,
  query: MailboxQuery,
): Promise<EmailsPage> {
  const { rows, total } = await listEmails(db, {
    folder,
    search: query.search.trim(),
    sort: SORT_COLUMNS[query.sort],
    direction: query.dir,
    limit: EMAILS_PAGE_SIZE,
    offset: (query.page - 1) * EMAILS_PAGE_SIZE,
  });
  return { emails: rows.map(presentEmail), page: query.page, pageSize: EMAILS_PAGE_SIZE, total };
}

/** A reply as POST /api/send-reply asks for it. */
export interface ReplyRequest {
  originalEmailId: string;
  replyBody: string;
}

const ADDRESS = /[^\s<>,;"]+@([^\s<>,;"]+)/g;

/**
 * Who a reply is from: the address the customer wrote to (support@…, not the receipts sender),
 * under the configured sender's name, when it is on the configured sender's own domain, so the
 * shop's SPF and DMARC cover it; any other address (a copy, a forward) gets the configured sender.
 */
export function replySender(wroteTo: string, configured: string): string {
  const [own] = [...configured.matchAll(ADDRESS)];
  if (!own) return configured;
  const domain = own[1].toLowerCase();
  const address = [...wroteTo.matchAll(ADDRESS)].find((m) => m[1].toLowerCase() === domain)?.[0];
  if (!address || address.toLowerCase() === own[0].toLowerCase()) return configured;
  const name = configured.slice(0, configured.indexOf("<")).trim();
  return name && configured.includes("<") ? `${name} <${address}>` : address;
}

function replySubject(subject: string): string {
  return /^re:/i.test(subject.trim()) ? subject : `Re: ${subject}`.trim();
}

/**
 * Sends `replyBody` to the other side of a stored message, from the configured sender, with
 * In-Reply-To and References naming the stored message (not what the browser says it is), then
 * records it in Sent and in the audit log together. A send the SMTP server refuses throws an
 * UpstreamError with its reason and records nothing.
 */
export async function replyToEmail(
  db: Db,
  mailer: Mailer,
  actor: OperatorActor,
  request: ReplyRequest,
): Promise<EmailDto> {
  const text = request.replyBody.trim();
  if (!text) throw new ValidationError(EMPTY_REPLY_TEXT);
  const original = await findEmail(db, request.originalEmailId);
  if (!original) throw new NotFoundError("Email not found");
  const to = original.folder === "inbox" ? original.from_address : original.to_address;
  if (!to) throw new ValidationError("The email has no address to reply to");
  const thread = original.message_id
    ? {
      inReplyTo: original.message_id,
      references: [original.references_header, original.message_id].filter(Boolean).join(" "),
    }
    : {};
  const from = original.folder === "inbox"
    ? replySender(original.to_address, mailer.from)
    : mailer.from;
  const messageId = messageIdFor(crypto.randomUUID(), mailer.from);
  const subject = replySubject(original.subject);
  const html = `<div style="white-space:pre-wrap">${escapeHtml(text)}</div>`;
  try {
    await mailer.send({ from, to, subject, text, html, messageId, ...thread });
  } catch (error) {
    throw new UpstreamError(error instanceof Error ? error.message : String(error));
  }
  const date = new Date();
  const id = await db.transaction().execute(async (trx) => {
    const row = await insertEmail(trx, "sent", {
      to,
      from,
      subject,
      html,
      messageId,
      date,
      inReplyTo: thread.inReplyTo,
      references: thread.references,
    });
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "email.reply",
      targetType: "email",
      targetId: original.id,
      after: { to, subject, messageId },
    });
    return row!.id;
  });
  return {
    id,
    to,
    from,
    subject,
    date: date.toISOString(),
    body: html,
    messageId,
  };
}

/** Deletes a message from its folder (kept, marked deleted), audited with what it was. */
export async function deleteEmail(db: Db, actor: OperatorActor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await softDeleteEmail(trx, id);
    if (!removed) throw new NotFoundError("Email not found");
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "email.delete",
      targetType: "email",
      targetId: id,
      before: {
        folder: removed.folder,
        subject: removed.subject,
        from: removed.from_address,
        to: removed.to_address,
      },
    });
  });
}
