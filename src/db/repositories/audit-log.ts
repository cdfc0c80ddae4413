import { sql } from "kysely";
import type { Db } from "../client.ts";
import type { AuditLogRow } from "../schema.ts";
import { containsPattern } from "./admins.ts";

export interface AuditEntry {
  actorType: "admin" | "reseller" | "system" | "cli";
  actorId?: string;
  actorName?: string;
  action: string;
  targetType?: string;
  targetId?: string;
  before?: unknown;
  after?: unknown;
}

export async function insertAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insertInto("audit_log").values({
    actor_type: entry.actorType,
    actor_id: entry.actorId ?? null,
    actor_name: entry.actorName ?? "",
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
  }).execute();
}

/**
 * The texts the actor and target filters search: exactly the expressions migration 0009 indexes
 * with trigrams, so a substring filter reads the index instead of the whole log.
 */
const ACTOR_TEXT = sql<string>`actor_name || E'\n' || coalesce(actor_id, '')`;
const TARGET_TEXT = sql<string>`coalesce(target_type, '') || E'\n' || coalesce(target_id, '')`;

/** What the audit view filters on; each is a case-insensitive substring, all must match. */
export interface AuditFilter {
  /** The actor's name or id. */
  actor?: string;
  /** The action's code, e.g. "admin.delete". */
  action?: string;
  /** Codes that match too (those whose words hold the filter's text). */
  actionCodes?: string[];
  /** The target's type or id. */
  target?: string;
  /** Only rows at or after this time. */
  since?: Date;
}

/** Audit rows matching `filter`, newest first, with the total for paging. */
export async function listAuditRows(
  db: Db,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditLogRow[]; total: number }> {
  let q = db.selectFrom("audit_log");
  if (filter.actor) q = q.where(ACTOR_TEXT, "ilike", containsPattern(filter.actor));
  if (filter.action) {
    const pattern = containsPattern(filter.action);
    const codes = filter.actionCodes ?? [];
    q = q.where((eb) =>
      codes.length
        ? eb.or([eb("action", "ilike", pattern), eb("action", "in", codes)])
        : eb("action", "ilike", pattern)
    );
  }
  if (filter.target) q = q.where(TARGET_TEXT, "ilike", containsPattern(filter.target));
  if (filter.since) q = q.where("at", ">=", filter.since);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("at", "desc").orderBy("id", "desc")
      .limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })), total: Number(count.n) };
}
