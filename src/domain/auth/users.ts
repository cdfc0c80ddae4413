import type { Db } from "../../db/client.ts";
import type { AdminPublicRow } from "../../db/repositories/admins.ts";
import { countAdmins } from "../../db/repositories/admins.ts";
import type { ResellerPublicRow } from "../../db/repositories/resellers.ts";
import {
  findResellerByEmail,
  findResellerPublicById,
  insertReseller,
  setResellerPasswordHash,
} from "../../db/repositories/resellers.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { hashPassword } from "./passwords.ts";
import { assertCurrentPassword } from "./current-password.ts";
import { assertPasswordAllowed } from "./password-policy.ts";
import { deleteUserSessions } from "../../db/repositories/sessions.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { centsToDollars } from "../money.ts";
import { openBalance } from "../ledger/ledger.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import type { ResellerDto } from "../../shared/user-types.ts";

/** The admin as the browser sees it (spec §3 Admin, User); never a hash or a secret. */
export interface PublicAdmin {
  _id: string;
  role: "admin";
  username: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  rank: string;
  remarks: string;
  twoFAEnabled: true;
  createdBy: string;
  createdAt: string;
}

/** The reseller as the browser sees it (spec §3 Reseller, User); never a hash or a secret. */
export interface PublicReseller extends ResellerDto {
  role: "reseller";
  username: string;
  twoFAEnabled: boolean;
}

export type PublicUser = PublicAdmin | PublicReseller;

/** Shapes an admin row for JSON. */
export function presentAdmin(row: AdminPublicRow): PublicAdmin {
  return {
    _id: row.id,
    role: "admin",
    username: row.email,
    name: row.name,
    givenName: row.given_name ?? "",
    familyName: row.family_name ?? "",
    email: row.email,
    rank: row.rank,
    remarks: row.remarks,
    twoFAEnabled: true,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

/** Shapes a reseller row for JSON. */
export function presentReseller(row: ResellerPublicRow): PublicReseller {
  return {
    _id: row.id,
    role: "reseller",
    username: row.email,
    name: row.name,
    phone: row.phone,
    email: row.email,
    balance: centsToDollars(row.balance_cents),
    markup: row.markup,
    remarks: row.remarks,
    disableDiscounts: row.disable_discounts,
    rank: row.rank,
    twoFAEnabled: row.two_fa_enabled,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

/** Spec §2/§6: the console is for ranks that, trimmed and lowercased, contain 'admin'. */
export function isAdminRank(rank: string): boolean {
  return rank.trim().toLowerCase().includes("admin");
}

/** Emails are stored and compared lowercased (spec §5: the login lowercases the email). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export { ADMIN_RANKS } from "../../shared/admin-types.ts";

/** True when no admin exists yet (first start). */
export async function hasNoAdmins(db: Db): Promise<boolean> {
  return (await countAdmins(db)) === 0;
}

export interface NewResellerInput {
  name: string;
  email: string;
  password: string;
  phone?: string;
  balanceCents: number;
  markup: Record<string, number>;
  remarks?: string;
  disableDiscounts?: boolean;
  twoFAEnabled: boolean;
  createdBy: string;
  /** The operator named in the audit row; without one the row names `createdBy` as the system. */
  actor?: OperatorActor;
}

/**
 * Creates a reseller and its 'initial' history row (old 0, new = starting balance) together. The
 * password follows the password policy, except the demo's own published account (`demoAccount`).
 */
export async function createReseller(
  db: Db,
  input: NewResellerInput,
  options: { demoAccount?: boolean } = {},
): Promise<PublicReseller> {
  const email = normalizeEmail(input.email);
  if (!options.demoAccount) await assertPasswordAllowed(input.password, input);
  if (!Number.isSafeInteger(input.balanceCents) || input.balanceCents < 0) {
    throw new ValidationError("Balance must be a non-negative amount");
  }
  if (await findResellerByEmail(db, email)) {
    throw new ConflictError(`A reseller with email ${email} already exists`);
  }
  const passwordHash = await hashPassword(input.password);
  const row = await db.transaction().execute(async (trx) => {
    const created = await insertReseller(trx, {
      name: input.name.trim(),
      email,
      password_hash: passwordHash,
      phone: input.phone ?? "",
      markup: JSON.stringify(input.markup),
      remarks: input.remarks ?? "",
      disable_discounts: input.disableDiscounts ?? false,
      two_fa_enabled: input.twoFAEnabled,
      created_by: input.createdBy,
      totp_secret_enc: null,
      deleted_at: null,
    });
    const balanceCents = await openBalance(trx, created.id, input.balanceCents, input.createdBy);
    await insertAudit(trx, {
      ...(input.actor
        ? auditActor(input.actor)
        : { actorType: "system", actorName: input.createdBy }),
      action: "reseller.create",
      targetType: "reseller",
      targetId: created.id,
      after: {
        name: created.name,
        email: created.email,
        phone: created.phone,
        markup: created.markup,
        remarks: created.remarks,
        disableDiscounts: created.disable_discounts,
        balanceCents: input.balanceCents,
      },
    });
    return { ...created, balance_cents: balanceCents };
  }).catch((e) => {
    const message = String(e?.message ?? e);
    if (message.includes("resellers_name_key")) {
      throw new ConflictError(
        `A reseller named ${input.name.trim()} already exists`,
      );
    }
    if (message.includes("resellers_email_key")) {
      throw new ConflictError(`A reseller with email ${email} already exists`);
    }
    throw e;
  });
  return presentReseller(row);
}

/**
 * A reseller changes its own password (spec §7), typing the current one; every other
 * session of that account ends, so a stolen session does not outlive the change.
 */
export async function changeResellerPassword(
  db: Db,
  resellerId: string,
  input: { currentPassword?: string; password: string },
  keepSessionIdHash: string,
): Promise<void> {
  const { password } = input;
  await assertCurrentPassword(db, { type: "reseller", id: resellerId }, input.currentPassword);
  const owner = await findResellerPublicById(db, resellerId);
  await assertPasswordAllowed(password, { email: owner?.email, name: owner?.name });
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await setResellerPasswordHash(trx, resellerId, hash);
    await deleteUserSessions(trx, "reseller", resellerId, keepSessionIdHash);
    await insertAudit(trx, {
      actorType: "reseller",
      actorId: resellerId,
      action: "reseller.change_password",
      targetType: "reseller",
      targetId: resellerId,
    });
  });
}
