import { z } from "zod";

const Name = z.string().trim().min(1, "required").max(200);
const Email = z.string().trim().max(320).pipe(z.email("must be an email address"));
const Remarks = z.string().max(2000).optional();
const Password = z.string().max(1024);

/**
 * Body of POST /api/user (spec §7). The spec's createdBy and createdAt are accepted and ignored:
 * the server records the signed-in admin and its own clock.
 */
export const CreateAdminInput = z.object({
  name: Name,
  email: Email,
  rank: z.string().max(50),
  password: Password,
  remarks: Remarks,
});

/**
 * Body of PUT /api/admin/{id} (spec §7); an empty or missing password keeps the current one.
 * `currentPassword` is needed when an admin changes their own password.
 */
export const UpdateAdminInput = z.object({
  name: Name,
  email: Email,
  rank: z.string().max(50),
  password: Password.optional(),
  currentPassword: Password.optional(),
  remarks: Remarks,
});

/** Query of GET /api/admins: the Admins tab's search box. */
export const AdminSearchQuery = z.object({ search: z.string().max(200).optional() });

const Digits = z.string().trim().min(1, "required").max(32);

/** Body of POST /api/restricted_mlbb_user (spec §7); createdAt and createdBy are the server's. */
export const RestrictedUserInput = z.object({
  userID: z.union([Digits, z.number().int().nonnegative().transform(String)]),
  serverID: z.union([Digits, z.number().int().nonnegative().transform(String)]),
});

/** Query of GET /api/audit_log: filters (substrings) and the page, from 1. */
export const AuditQuery = z.object({
  actor: z.string().max(200).optional(),
  action: z.string().max(200).optional(),
  target: z.string().max(200).optional(),
  since: z.iso.datetime({ offset: true }).transform((s) => new Date(s)).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
