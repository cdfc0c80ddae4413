// What the admin console's Admins tab, Settings and Audit views exchange with /api (spec §3 Admin,
// Restricted mlbb user; the audit log is ours).

/** Spec §3 Admin ranks. Only a rank containing 'admin' opens the console (spec §6). */
export const ADMIN_RANKS = ["Admin", "Staff", "superadmin"] as const;
export type AdminRank = (typeof ADMIN_RANKS)[number];

/** The rank that is read-only and may manage other superadmins. */
export function isSuperadminRank(rank: string): boolean {
  return rank.trim().toLowerCase() === "superadmin";
}

/** An admin as GET /api/admins lists it. */
export interface AdminDto {
  _id: string;
  name: string;
  email: string;
  rank: string;
  remarks: string;
  createdBy: string;
  createdAt: string;
}

/** A row of GET /api/restricted_mlbb_users (spec §3 Restricted mlbb user); dates are ISO. */
export interface RestrictedUserDto {
  _id: string;
  userID: string;
  serverID: string;
  createdAt: string;
  createdBy: string;
}

/** Spec §5: the refusal of a duplicate restricted user; `date` already in the §9 format. */
export function restrictedDuplicateMessage(date: string, admin: string): string {
  return `This user was already added on ${date} by ${admin}`;
}

/** One audit row: who did what to which target, and the target before and after. */
export interface AuditEntryDto {
  id: number;
  at: string;
  actorType: string;
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/** A page of GET /api/audit_log. */
export interface AuditPage {
  entries: AuditEntryDto[];
  total: number;
  page: number;
  pageSize: number;
}
