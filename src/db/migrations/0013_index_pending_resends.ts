import { type Kysely, sql } from "kysely";

// One pending resend per webhook event. Frozen once landed.
// A reseller's Resend queues a `webhook.deliver` job with retry -1; this index lets one such job
// per event wait (or run) at a time, so an insert of a second one finds it taken (ON CONFLICT DO
// NOTHING) however many arrive at once. A job leaves the index when it is done or failed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX jobs_one_pending_resend ON jobs ((payload->>'eventId'))
    WHERE kind = 'webhook.deliver' AND payload->>'retry' = '-1'
      AND done_at IS NULL AND failed_at IS NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_one_pending_resend`.execute(db);
}
