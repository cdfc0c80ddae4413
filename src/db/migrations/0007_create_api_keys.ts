import { type Kysely, sql } from "kysely";

// Reseller API keys. Frozen once landed.
// - Only the SHA-256 of the secret is kept; `prefix` is its first characters, shown to tell keys apart.
// - A key is looked up by its hash on every /api/v1 request; a revoked key stays for the record.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("reseller_id", "uuid", (c) => c.notNull().references("resellers.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await sql`CREATE INDEX api_keys_reseller ON api_keys (reseller_id, created_at DESC)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_keys").execute();
}
