// Managing admins from the console (spec §2 Users › Admins, §7 Admin calls) and the CLI, with the
// rank rules enforced here so both doors obey them (README "Ranks"):
// - only a superadmin changes or deletes a superadmin, or grants the superadmin rank;
// - the superadmin rank is read-only: a superadmin stays one until deleted;
// - nobody deletes themselves or changes their own rank;
// - the last superadmin cannot be deleted;
// - a new password ends every other session of that admin;
// - changing one's own password needs the current one.
import type { Db } from "../../db/client.ts";
import {
  type AdminPublicRow,
  deleteAdminRow,
  findAdminByEmail,
  insertAdmin,
  listAdmins,
  lockAdminById,
  lockSuperadminIds,
  searchAdmins,
  updateAdminRow,
} from "../../db/repositories/admins.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { deleteUserSessions } from "../../db/repositories/sessions.ts";
import { ADMIN_RANKS, type AdminRank, isSuperadminRank } from "../../shared/admin-types.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { hashPassword } from "../auth/passwords.ts";
import { assertPasswordAllowed } from "../auth/password-policy.ts";
import { assertCurrentPassword } from "../auth/current-password.ts";
import { normalizeEmail, presentAdmin, type PublicAdmin } from "../auth/users.ts";
import { adminActor, auditActor, type OperatorActor } from "../actor.ts";

/**
 * Who manages admins: a signed-in admin (with its session, kept on a password change), an
 * operator at the CLI, or the system itself (first start, demo seed).
 */
export type AdminActor =
  | { kind: "admin"; admin: PublicAdmin; sessionIdHash?: string }
  | { kind: "cli" | "system"; name: string };

/** The fields of the Create user and Edit admin forms (spec §7 POST /user, PUT /admin/{id}). */
export interface AdminForm {
  name: string;
  email: string;
  rank: string;
  /** Required on create; on edit an empty password keeps the current one. */
  password?: string;
  /** An admin changing their own password types the current one. */
  currentPassword?: string;
  remarks?: string;
}

function actorIsSuperadmin(actor: AdminActor): boolean {
  return actor.kind !== "admin" || isSuperadminRank(actor.admin.rank);
}

function operatorOf(actor: AdminActor): OperatorActor {
  return actor.kind === "admin" ? adminActor(actor.admin) : { type: actor.kind, name: actor.name };
}

function actorName(actor: AdminActor): string {
  return operatorOf(actor).name;
}

/** The audited view of an admin: never the password hash or the TOTP secret. */
function auditView(row: AdminPublicRow) {
  return { name: row.name, email: row.email, rank: row.rank, remarks: row.remarks };
}

/** "admin" or "ADMIN " → "Admin"; anything else is not a rank of spec §3. */
export function canonicalRank(rank: string): AdminRank {
  const found = ADMIN_RANKS.find((r) => r.toLowerCase() === rank.trim().toLowerCase());
  if (!found) throw new ValidationError(`rank: must be one of ${ADMIN_RANKS.join(", ")}`);
  return found;
}

function emailTaken(error: unknown, email: string): never {
  if (String((error as Error)?.message ?? error).includes("admins_email_key")) {
    throw new ConflictError(`An admin with email ${email} already exists`);
  }
  throw error;
}

/** Admins for the Admins tab; `search` matches name, email or rank (case-insensitive substring). */
export async function listAdminsMatching(db: Db, search = ""): Promise<PublicAdmin[]> {
  const rows = search.trim() ? await searchAdmins(db, search.trim()) : await listAdmins(db);
  return rows.map(presentAdmin);
}

/**
 * Creates an admin from the console or CLI; only a superadmin creates a superadmin. The password
 * follows the password policy, except the demo's own published account (`demoAccount`), which
 * only the demo seed creates.
 */
export async function createAdminAs(
  db: Db,
  actor: AdminActor,
  form: AdminForm,
  options: { demoAccount?: boolean } = {},
): Promise<PublicAdmin> {
  const rank = canonicalRank(form.rank);
  if (isSuperadminRank(rank) && !actorIsSuperadmin(actor)) {
    throw new ForbiddenError("Only a superadmin can grant the superadmin rank");
  }
  if (!options.demoAccount) await assertPasswordAllowed(form.password ?? "", form);
  const email = normalizeEmail(form.email);
  const passwordHash = await hashPassword(form.password!);
  const row = await db.transaction().execute(async (trx) => {
    const created = await insertAdmin(trx, {
      name: form.name.trim(),
      email,
      password_hash: passwordHash,
      rank,
      remarks: form.remarks ?? "",
      created_by: actorName(actor),
      totp_secret_enc: null,
      given_name: null,
      family_name: null,
    });
    await insertAudit(trx, {
      ...auditActor(operatorOf(actor)),
      action: "admin.create",
      targetType: "admin",
      targetId: created.id,
      after: auditView(created),
    });
    return created;
  }).catch((e) => emailTaken(e, email));
  return presentAdmin(row);
}

/** Creates an admin on the system's behalf (first start, demo seed); `createdBy` names the cause. */
export async function createAdmin(
  db: Db,
  input: AdminForm & { password: string; createdBy: string },
  options: { demoAccount?: boolean } = {},
): Promise<PublicAdmin> {
  return await createAdminAs(db, { kind: "system", name: input.createdBy }, input, options);
}

/**
 * Edits an admin (spec §7 PUT /admin/{id}). A changed password ends the admin's other sessions
 * (the editor's own session survives when they change their own password, which needs their
 * current one; another admin's password is reset without it, and audited).
 */
export async function updateAdminAs(
  db: Db,
  actor: AdminActor,
  id: string,
  form: AdminForm,
): Promise<PublicAdmin> {
  const rank = canonicalRank(form.rank);
  const self = actor.kind === "admin" && actor.admin._id === id;
  if (form.password) {
    await assertPasswordAllowed(form.password, form);
    if (self) await assertCurrentPassword(db, { type: "admin", id }, form.currentPassword);
  }
  const passwordHash = form.password ? await hashPassword(form.password) : undefined;
  const email = normalizeEmail(form.email);
  const row = await db.transaction().execute(async (trx) => {
    const before = await lockAdminById(trx, id);
    if (!before) throw new NotFoundError("Admin not found");
    const wasSuper = isSuperadminRank(before.rank);
    if (wasSuper && !actorIsSuperadmin(actor)) {
      throw new ForbiddenError("Only a superadmin can change a superadmin");
    }
    if (wasSuper && !isSuperadminRank(rank)) {
      throw new ForbiddenError("The superadmin rank cannot be changed");
    }
    if (!wasSuper && isSuperadminRank(rank) && !actorIsSuperadmin(actor)) {
      throw new ForbiddenError("Only a superadmin can grant the superadmin rank");
    }
    if (self && rank !== before.rank) {
      throw new ForbiddenError("You cannot change your own rank");
    }
    const after = await updateAdminRow(trx, id, {
      name: form.name.trim(),
      email,
      rank,
      remarks: form.remarks ?? "",
      ...(passwordHash ? { password_hash: passwordHash } : {}),
    });
    if (passwordHash) {
      const keep = self && actor.kind === "admin" ? actor.sessionIdHash : undefined;
      await deleteUserSessions(trx, "admin", id, keep);
    }
    await insertAudit(trx, {
      ...auditActor(operatorOf(actor)),
      action: "admin.update",
      targetType: "admin",
      targetId: id,
      before: auditView(before),
      after: { ...auditView(after), passwordChanged: !!passwordHash },
    });
    return after;
  }).catch((e) => emailTaken(e, email));
  return presentAdmin(row);
}

/**
 * Deletes an admin and ends their sessions; never oneself, never the last superadmin, except with
 * `lastSuperadmin` (removing the demo's published admin: the next start then creates the first
 * admin from ADMIN_EMAIL, or an operator runs `admin create`).
 */
export async function deleteAdminAs(
  db: Db,
  actor: AdminActor,
  id: string,
  options: { lastSuperadmin?: boolean } = {},
): Promise<void> {
  if (actor.kind === "admin" && actor.admin._id === id) {
    throw new ForbiddenError("You cannot delete your own account");
  }
  await db.transaction().execute(async (trx) => {
    // Superadmins first, then the target: every deleting transaction takes locks in that order.
    const superadmins = await lockSuperadminIds(trx);
    const target = await lockAdminById(trx, id);
    if (!target) throw new NotFoundError("Admin not found");
    if (isSuperadminRank(target.rank)) {
      if (!actorIsSuperadmin(actor)) {
        throw new ForbiddenError("Only a superadmin can delete a superadmin");
      }
      if (superadmins.length <= 1 && !options.lastSuperadmin) {
        throw new ConflictError("The last superadmin cannot be deleted");
      }
    }
    await deleteUserSessions(trx, "admin", id);
    await deleteAdminRow(trx, id);
    await insertAudit(trx, {
      ...auditActor(operatorOf(actor)),
      action: "admin.delete",
      targetType: "admin",
      targetId: id,
      before: auditView(target),
    });
  });
}

/** The id of the admin with this email (the CLI names admins by email). */
export async function adminIdByEmail(db: Db, email: string): Promise<string> {
  const found = await findAdminByEmail(db, normalizeEmail(email));
  if (!found) throw new NotFoundError(`No admin with email ${normalizeEmail(email)}`);
  return found.id;
}
