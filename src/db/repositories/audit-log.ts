import type { Db } from "../client.ts";

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
