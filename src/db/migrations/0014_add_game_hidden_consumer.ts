import type { Kysely } from "kysely";

// A game hidden from consumers only. Frozen once landed.
// - games.is_hidden_consumer: the game is absent from /consumers, its page answers 404 and its
//   consumer payment is refused, while resellers keep buying it (is_hidden hides it from both).
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games")
    .addColumn("is_hidden_consumer", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").dropColumn("is_hidden_consumer").execute();
}
