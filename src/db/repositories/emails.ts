import type { Db } from "../client.ts";

/** A message as the admin console lists it. */
export interface EmailListRow {
  id: string;
  to_address: string;
  from_address: string;
  subject: string;
  date: Date;
  body_html: string;
  message_id: string | null;
}

/**
 * Records a sent message. A message already recorded (same Message-ID: a mail job that ran
 * again after sending) is not recorded twice.
 */
export async function insertSentEmail(
  db: Db,
  email: { to: string; from: string; subject: string; html: string; messageId: string },
): Promise<void> {
  await db.insertInto("emails")
    .values({
      folder: "sent",
      to_address: email.to,
      from_address: email.from,
      subject: email.subject,
      body_html: email.html,
      message_id: email.messageId,
    })
    .onConflict((oc) =>
      oc.columns(["folder", "message_id"]).where("message_id", "is not", null).doNothing()
    )
    .execute();
}

/** One page of sent messages, newest first, and how many there are. */
export async function listSentEmails(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: EmailListRow[]; total: number }> {
  const sent = db.selectFrom("emails").where("folder", "=", "sent").where("deleted_at", "is", null);
  const [rows, count] = await Promise.all([
    sent.select([
      "id",
      "to_address",
      "from_address",
      "subject",
      "date",
      "body_html",
      "message_id",
    ])
      .orderBy("date", "desc").orderBy("id", "desc")
      .limit(page.limit).offset(page.offset)
      .execute(),
    sent.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
