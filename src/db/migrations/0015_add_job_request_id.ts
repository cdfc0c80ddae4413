import { type Kysely, sql } from "kysely";

// The request that queued a job: its X-Request-Id, so the job's log lines and the
// supplier calls it makes carry the id of the request that caused them. Null for jobs queued
// outside a request (the CLI, a job's own retry keeps its request's id). Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN request_id text`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs DROP COLUMN request_id`.execute(db);
}
