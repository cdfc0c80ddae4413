import { type Kysely, sql } from "kysely";

// The admin Audit log filters by case-insensitive substrings (`ILIKE '%…%'`): the actor's
// name or id, the action, the target's type or id. A trigram index per filter answers them
// without reading the whole log, which only grows. The actor's and the target's two fields are
// indexed as one text each, joined by a newline (which no filter box can type, so a filter never
// matches across the two); `src/db/repositories/audit-log.ts` filters on exactly these
// expressions, so the planner can use the indexes. Frozen once landed.
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX audit_log_actor_trgm ON audit_log
    USING gin ((actor_name || E'\n' || coalesce(actor_id, '')) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX audit_log_action_trgm ON audit_log USING gin (action gin_trgm_ops)`
    .execute(db);
  await sql`CREATE INDEX audit_log_target_trgm ON audit_log
    USING gin ((coalesce(target_type, '') || E'\n' || coalesce(target_id, '')) gin_trgm_ops)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX audit_log_target_trgm`.execute(db);
  await sql`DROP INDEX audit_log_action_trgm`.execute(db);
  await sql`DROP INDEX audit_log_actor_trgm`.execute(db);
}
