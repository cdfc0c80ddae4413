// Reading the audit log (the console's Audit view and `cli audit`). Rows are written by each
// mutation in its own transaction (src/db/repositories/audit-log.ts); only superadmins read them.
import type { Db } from "../../db/client.ts";
import { type AuditFilter, listAuditRows } from "../../db/repositories/audit-log.ts";
import type { AuditLogRow } from "../../db/schema.ts";
import { type AuditEntryDto, type AuditPage, isSuperadminRank } from "../../shared/admin-types.ts";
import { auditActionsWorded } from "../../shared/audit-actions.ts";
import { ForbiddenError } from "../errors.ts";
import type { PublicAdmin } from "../auth/users.ts";

/** Rows per page of the Audit view. */
export const AUDIT_PAGE_SIZE = 20;

export type { AuditFilter };

function present(row: AuditLogRow): AuditEntryDto {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorType: row.actor_type,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
  };
}

/** Refuses anyone but a superadmin: the log names every admin's actions, Admins included. */
export function assertCanReadAudit(admin: PublicAdmin): void {
  if (!isSuperadminRank(admin.rank)) {
    throw new ForbiddenError("Only a superadmin can read the audit log");
  }
}

/**
 * One page (from 1) of audit rows matching `filter`, newest first, for a superadmin; the action
 * filter matches an action's code or the words the Audit view shows for it.
 */
export async function readAuditPage(
  db: Db,
  admin: PublicAdmin,
  filter: AuditFilter,
  page: number,
): Promise<AuditPage> {
  assertCanReadAudit(admin);
  const worded = filter.action ? auditActionsWorded(filter.action) : [];
  const { rows, total } = await listAuditRows(db, { ...filter, actionCodes: worded }, {
    limit: AUDIT_PAGE_SIZE,
    offset: (page - 1) * AUDIT_PAGE_SIZE,
  });
  return { entries: rows.map(present), total, page, pageSize: AUDIT_PAGE_SIZE };
}

/** Every audit row matching `filter`, newest first (the operator CLI; no paging). */
export async function readAuditForOperator(db: Db, filter: AuditFilter): Promise<AuditEntryDto[]> {
  const { rows } = await listAuditRows(db, filter, { limit: 100_000, offset: 0 });
  return rows.map(present);
}
