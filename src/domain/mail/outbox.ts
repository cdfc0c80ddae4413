// Mail leaves through the job queue, never from inside a request's transaction: the caller
// enqueues in its own transaction (so a mail exists exactly when the change it reports does),
// and the `mail.send` job sends it and records it in the Sent folder.

import type { Transaction } from "kysely";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/schema.ts";
import { queueJob } from "../jobs.ts";
import { insertSentEmail } from "../../db/repositories/emails.ts";
import type { Mailer } from "../../integrations/mail/mailer.ts";
import type { JobHandler } from "../jobs.ts";

/** The job kind that sends one message. */
export const SEND_MAIL_JOB = "mail.send";

/** A message to send: plain text and HTML versions of the same content. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const MailJobPayload = z.object({
  to: z.string().min(3),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** Fixed at enqueue time: the Message-ID of every attempt, so a retry is recorded once. */
  key: z.uuid(),
});

/** Queues `message` in the caller's transaction; the job runner sends it after commit. */
export async function enqueueMail(trx: Transaction<Database>, message: MailMessage): Promise<void> {
  await queueJob(trx, SEND_MAIL_JOB, { ...message, key: crypto.randomUUID() });
}

/** The Message-ID of a queued message, on the sender's domain as mail filters expect. */
export function messageIdFor(key: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<${key}@${domain}>`;
}

/**
 * Sends one queued message, then records it in the Sent folder. A send that fails throws, and
 * the job runs again later; a crash between send and record may send twice (SMTP offers no
 * exactly-once), but never records twice.
 */
export async function deliverQueuedMail(
  db: Db,
  mailer: Mailer,
  payload: Record<string, unknown>,
): Promise<boolean> {
  const { key, ...message } = MailJobPayload.parse(payload);
  const messageId = messageIdFor(key, mailer.from);
  await mailer.send({ ...message, messageId });
  await insertSentEmail(db, { ...message, from: mailer.from, messageId });
  return true;
}

/** The job kinds of outgoing mail, with their handlers. */
export function mailJobHandlers(db: Db, mailer: () => Mailer): Record<string, JobHandler> {
  return { [SEND_MAIL_JOB]: (payload) => deliverQueuedMail(db, mailer(), payload) };
}
