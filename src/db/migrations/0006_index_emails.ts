import { type Kysely, sql } from "kysely";

// Admin Emails. Frozen once landed.
// - Each folder is listed newest first, 10 a page, from the index rather than a sort of the folder.
// - An inbound message keeps its References header, so a reply continues the whole thread.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("emails").addColumn("references_header", "text").execute();
  await sql`CREATE INDEX emails_folder_date ON emails (folder, date DESC, id DESC)
    WHERE deleted_at IS NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX emails_folder_date`.execute(db);
  await db.schema.alterTable("emails").dropColumn("references_header").execute();
}
