import { type Kysely, sql } from "kysely";

// An idempotent answer is kept as the text that was sent. Frozen once landed.
// jsonb keeps the value but not its text: it reorders keys (shortest first) and drops nothing
// else, so a replay answered the same fields in another order. As text, JSON.parse gives back the
// keys in the order they were written, and the replay is the first answer byte for byte.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text
    USING response_body::text`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb
    USING response_body::jsonb`.execute(db);
}
