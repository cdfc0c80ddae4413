import { sql, type Transaction } from "kysely";
import type { Db } from "../client.ts";
import type { Database } from "../schema.ts";

/**
 * The id of the live consumer with this billing email (case-insensitive), inserted with these
 * details when there is none. A known consumer's details are never changed: anyone may check out
 * with any email, so what a checkout typed belongs to its order only.
 */
export async function findOrInsertConsumer(
  trx: Transaction<Database>,
  consumer: { name: string; email: string; phone: string },
): Promise<string> {
  // The update changes nothing; it is there because DO NOTHING would return no row to read the
  // known consumer's id from, and a second query could miss a row deleted in between.
  const { rows } = await sql<{ id: string }>`
    INSERT INTO consumers (name, email, phone)
    VALUES (${consumer.name}, ${consumer.email}, ${consumer.phone})
    ON CONFLICT (lower(email)) WHERE deleted_at IS NULL
    DO UPDATE SET email = consumers.email
    RETURNING id`.execute(trx);
  return rows[0].id;
}

export interface ConsumerListRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  created_at: Date;
}

const CONSUMER_COLUMNS = ["id", "name", "email", "phone", "created_at"] as const;

/** Escapes LIKE's wildcards so a search for "50%" matches the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Live consumers, newest first, whose name, email or phone contains `search` (case-insensitive),
 * one page at a time, with the number that match.
 */
export async function listConsumers(
  db: Db,
  options: { search: string; limit: number; offset: number },
): Promise<{ rows: ConsumerListRow[]; total: number }> {
  let q = db.selectFrom("consumers").where("deleted_at", "is", null);
  if (options.search) {
    const pattern = likePattern(options.search);
    q = q.where((eb) =>
      eb.or([
        eb("name", "ilike", pattern),
        eb("email", "ilike", pattern),
        eb("phone", "ilike", pattern),
      ])
    );
  }
  const [rows, count] = await Promise.all([
    q.select(CONSUMER_COLUMNS).orderBy("created_at", "desc").orderBy("id")
      .limit(options.limit).offset(options.offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Marks a live consumer deleted (their orders keep their snapshot); returns the row, or undefined. */
export async function softDeleteConsumer(
  trx: Transaction<Database>,
  id: string,
): Promise<ConsumerListRow | undefined> {
  return await trx.updateTable("consumers").set({ deleted_at: new Date() })
    .where("id", "=", id).where("deleted_at", "is", null)
    .returning(CONSUMER_COLUMNS).executeTakeFirst();
}
