import type { Db } from "../../db/client.ts";
import { listSentEmails } from "../../db/repositories/emails.ts";
import type { EmailsPage } from "../../shared/email-types.ts";

/** Admin console page size for emails (spec §9). */
export const EMAILS_PAGE_SIZE = 10;

/** Lists page `page` (from 1) of the mail the app sent, newest first. */
export async function listSentMail(db: Db, page: number): Promise<EmailsPage> {
  const { rows, total } = await listSentEmails(db, {
    limit: EMAILS_PAGE_SIZE,
    offset: (page - 1) * EMAILS_PAGE_SIZE,
  });
  return {
    emails: rows.map((row) => ({
      id: row.id,
      to: row.to_address,
      from: row.from_address,
      subject: row.subject,
      date: row.date.toISOString(),
      body: row.body_html,
      messageId: row.message_id,
    })),
    page,
    pageSize: EMAILS_PAGE_SIZE,
    total,
  };
}
