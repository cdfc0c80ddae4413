import { sql, type Transaction } from "kysely";
import type { Database } from "../schema.ts";

/**
 * Stores a buyer by billing email (case-insensitive, among consumers not deleted): a returning
 * buyer keeps one row, with the latest name and phone. Returns the consumer's id.
 */
export async function upsertConsumer(
  trx: Transaction<Database>,
  consumer: { name: string; email: string; phone: string },
): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO consumers (name, email, phone)
    VALUES (${consumer.name}, ${consumer.email}, ${consumer.phone})
    ON CONFLICT (lower(email)) WHERE deleted_at IS NULL
    DO UPDATE SET name = excluded.name, phone = excluded.phone
    RETURNING id`.execute(trx);
  return rows[0].id;
}
