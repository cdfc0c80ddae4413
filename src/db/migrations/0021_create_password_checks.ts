import { type Kysely, sql } from "kysely";

// The stored password hashes already found to be none of the passwords this repository publishes
// (the demo accounts', the README's examples), by the SHA-256 of the hash. Production checks every
// account's hash at start, and a check costs one scrypt per published password: a hash checked
// once is not checked again, and a changed password has a new hash, so it is. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable("password_checks")
    .addColumn("digest", "text", (c) => c.primaryKey())
    .addColumn("checked_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("password_checks").execute();
}
