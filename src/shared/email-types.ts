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
