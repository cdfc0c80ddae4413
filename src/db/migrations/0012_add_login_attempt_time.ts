import { type Kysely, sql } from "kysely";

// Growing delays for a known device's failed sign-ins. Frozen once landed.
// - login_attempts.last_at: when the key's last hit was counted. A device's next try must wait a
//   delay that doubles with each failure past the first few, measured from it.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_attempts")
    .addColumn("last_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_attempts").dropColumn("last_at").execute();
}
