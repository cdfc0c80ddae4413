import type { Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";
import { containsPattern } from "./admins.ts";

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

/** A stored message with its threading headers, as a reply needs it. */
export interface EmailThreadRow extends EmailListRow {
  folder: "inbox" | "sent";
  references_header: string | null;
}

const LIST_COLUMNS = [
  "id",
  "to_address",
  "from_address",
  "subject",
  "date",
  "body_html",
  "message_id",
] as const;

/** A message to record in a folder. */
export interface NewEmail {
  to: string;
  from: string;
  subject: string;
  html: string;
  messageId: string | null;
  /** The Date header (inbound) or the moment it was sent; now when absent. */
  date?: Date;
  inReplyTo?: string | null;
  references?: string | null;
}

/**
 * Records a message in `folder`. A message already recorded there (same Message-ID: a mail job
 * that ran again after sending, an inbound message posted twice) is not recorded twice; the
 * answer is then undefined.
 */
export async function insertEmail(
  db: Db | Transaction<Database>,
  folder: "inbox" | "sent",
  email: NewEmail,
): Promise<{ id: string } | undefined> {
  return await db.insertInto("emails")
    .values({
      folder,
      to_address: email.to,
      from_address: email.from,
      subject: email.subject,
      body_html: email.html,
      message_id: email.messageId,
      in_reply_to: email.inReplyTo ?? null,
      references_header: email.references ?? null,
      ...(email.date ? { date: email.date } : {}),
    })
    .onConflict((oc) =>
      oc.columns(["folder", "message_id"]).where("message_id", "is not", null).doNothing()
    )
    .returning("id")
    .executeTakeFirst();
}

/** Records a sent message (see insertEmail). */
export async function insertSentEmail(
  db: Db,
  email: { to: string; from: string; subject: string; html: string; messageId: string },
): Promise<void> {
  await insertEmail(db, "sent", email);
}

/** The columns a folder can be sorted by. */
export type EmailSortColumn = "to_address" | "from_address" | "subject" | "date";

/** What one page of a folder asks for. */
export interface EmailListQuery {
  folder: "inbox" | "sent";
  /** Case-insensitive substring of To, From or Subject; empty: every message. */
  search: string;
  sort: EmailSortColumn;
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

/** One page of a folder (deleted messages left out) and how many messages match. */
export async function listEmails(
  db: Db,
  query: EmailListQuery,
): Promise<{ rows: EmailListRow[]; total: number }> {
  let q = db.selectFrom("emails").where("folder", "=", query.folder)
    .where("deleted_at", "is", null);
  if (query.search) {
    const p = containsPattern(query.search);
    q = q.where((eb) =>
      eb.or([
        eb("to_address", "ilike", p),
        eb("from_address", "ilike", p),
        eb("subject", "ilike", p),
      ])
    );
  }
  let ordered = q.select(LIST_COLUMNS).orderBy(query.sort, query.direction);
  if (query.sort !== "date") ordered = ordered.orderBy("date", "desc");
  const [rows, count] = await Promise.all([
    ordered.orderBy("id", query.sort === "date" ? query.direction : "desc")
      .limit(query.limit).offset(query.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A message that is not deleted, with its folder and threading headers. */
export async function findEmail(db: Db, id: string): Promise<EmailThreadRow | undefined> {
  return await db.selectFrom("emails")
    .select([...LIST_COLUMNS, "folder", "references_header"])
    .where("id", "=", id).where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Marks a message deleted; answers what was deleted, or undefined when there was none. */
export async function softDeleteEmail(
  trx: Transaction<Database>,
  id: string,
): Promise<
  { folder: string; subject: string; from_address: string; to_address: string } | undefined
> {
  return await trx.updateTable("emails").set({ deleted_at: new Date() })
    .where("id", "=", id).where("deleted_at", "is", null)
    .returning(["folder", "subject", "from_address", "to_address"])
    .executeTakeFirst();
}
