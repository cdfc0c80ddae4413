import type { Db } from "../db/client.ts";
import type { AdminPublicRow } from "../db/repositories/admins.ts";
import {
  countAdmins,
  findAdminByEmail,
  insertAdmin,
  listAdmins,
} from "../db/repositories/admins.ts";
import type { ResellerPublicRow } from "../db/repositories/resellers.ts";
import {
  findResellerByEmail,
  insertReseller,
  listResellerRows,
  setResellerPasswordHash,
} from "../db/repositories/resellers.ts";
import { insertAudit } from "../db/repositories/audit-log.ts";
import { hashPassword } from "./passwords.ts";
import { deleteUserSessions } from "../db/repositories/sessions.ts";
import { ConflictError, ValidationError } from "./errors.ts";
import { centsToDollars } from "./money.ts";
import { openBalance } from "./ledger.ts";

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
export interface PublicReseller {
  _id: string;
  role: "reseller";
  username: string;
  name: string;
  phone: string;
  email: string;
  balance: number;
  markup: Record<string, number>;
  remarks: string;
  disableDiscounts: boolean;
  rank: string;
  twoFAEnabled: boolean;
  createdBy: string;
  createdAt: string;
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

export const ADMIN_RANKS = ["Admin", "Staff", "superadmin"] as const;

export interface NewAdminInput {
  name: string;
  email: string;
  password: string;
  rank: string;
  remarks?: string;
  createdBy: string;
}

/** Creates an admin; an email already in use is a ConflictError. */
export async function createAdmin(
  db: Db,
  input: NewAdminInput,
): Promise<PublicAdmin> {
  const email = normalizeEmail(input.email);
  if (input.password.length < 8) {
    throw new ValidationError("Password must be at least 8 characters");
  }
  if (await findAdminByEmail(db, email)) {
    throw new ConflictError(`An admin with email ${email} already exists`);
  }
  const row = await insertAdmin(db, {
    name: input.name.trim(),
    email,
    password_hash: await hashPassword(input.password),
    rank: input.rank.trim(),
    remarks: input.remarks ?? "",
    created_by: input.createdBy,
    totp_secret_enc: null,
    given_name: null,
    family_name: null,
  });
  await insertAudit(db, {
    actorType: "system",
    actorName: input.createdBy,
    action: "admin.create",
    targetType: "admin",
    targetId: row.id,
    after: { name: row.name, email: row.email, rank: row.rank },
  });
  return presentAdmin(row);
}

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
}

/** Creates a reseller and its 'initial' history row (old 0, new = starting balance) together. */
export async function createReseller(
  db: Db,
  input: NewResellerInput,
): Promise<PublicReseller> {
  const email = normalizeEmail(input.email);
  if (input.password.length < 8) {
    throw new ValidationError("Password must be at least 8 characters");
  }
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
      actorType: "system",
      actorName: input.createdBy,
      action: "reseller.create",
      targetType: "reseller",
      targetId: created.id,
      after: {
        name: created.name,
        email: created.email,
        balanceCents: input.balanceCents,
      },
    });
    return { ...created, balance_cents: balanceCents };
  }).catch((e) => {
    if (String(e?.message ?? e).includes("resellers_name_key")) {
      throw new ConflictError(
        `A reseller named ${input.name.trim()} already exists`,
      );
    }
    throw e;
  });
  return presentReseller(row);
}

/** Every admin, for the admin console's Admins tab. */
export async function listAllAdmins(db: Db): Promise<PublicAdmin[]> {
  return (await listAdmins(db)).map(presentAdmin);
}

/** Every live reseller, for the admin console (GET /api/resellers). */
export async function listAllResellers(db: Db): Promise<PublicReseller[]> {
  return (await listResellerRows(db)).map(presentReseller);
}

/**
 * A reseller changes its own password (spec §7); every other session of that account ends, so a
 * stolen session does not outlive the change.
 */
export async function changeResellerPassword(
  db: Db,
  resellerId: string,
  password: string,
  keepSessionIdHash: string,
): Promise<void> {
  if (password.length < 8) throw new ValidationError("Password must be at least 8 characters");
  if (password.length > 1024) throw new ValidationError("Password is too long");
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
