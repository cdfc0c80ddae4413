// The emails the admin console reads (GET /api/sent-emails), shared by the server and the island.

/** A message as the admin console shows it (spec §3 Email). */
export interface EmailDto {
  id: string;
  to: string;
  from: string;
  subject: string;
  /** ISO date. */
  date: string;
  /** HTML. */
  body: string;
  messageId: string | null;
}

/** One page of a mail folder, newest first. */
export interface EmailsPage {
  emails: EmailDto[];
  /** From 1. */
  page: number;
  pageSize: number;
  /** Messages in the folder. */
  total: number;
}

/** The two folders of the Emails screen: Inbox (GET /api/emails) and Sent (GET /api/sent-emails). */
export type EmailFolder = "inbox" | "sent";

/** The sortable columns (spec §2 Emails: To, From, Subject, Date). */
export const EMAIL_SORT_KEYS = ["to", "from", "subject", "date"] as const;
export type EmailSortKey = (typeof EMAIL_SORT_KEYS)[number];

/** Spec §5: a reply whose content is blank after trimming is refused with this text. */
export const EMPTY_REPLY_TEXT = "Reply content cannot be empty";
