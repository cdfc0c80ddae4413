// Admins create, edit and delete resellers (spec §2 Users › Resellers, §7 Admin calls). The
// balance is the ledger's: a new reseller's starting balance is its 'initial' row, and an edit
// never sets it (README: a changed balance is refused; Top Up and Deduct move it).
import type { Db } from "../../db/client.ts";
import {
  findResellerByEmail,
  findResellersByNameInsensitive,
  listResellerRows,
  lockLiveReseller,
  type ResellerPublicRow,
  softDeleteReseller,
  updateResellerDetails,
} from "../../db/repositories/resellers.ts";
import { deleteUserSessions } from "../../db/repositories/sessions.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { matchesSearch, REQUIRED_MARKUP_KEYS } from "../../shared/user-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { centsToDollarString, type DecimalInput, dollarsToCents, parseDecimal } from "../money.ts";
import { hashPassword } from "../auth/passwords.ts";
import { assertPasswordAllowed } from "../auth/password-policy.ts";
import {
  createReseller,
  normalizeEmail,
  presentReseller,
  type PublicReseller,
} from "../auth/users.ts";
import { checkMoveCeiling } from "./balance.ts";
import { revokeAllKeysIn } from "./api-keys.ts";
import { disableWebhook } from "./webhooks.ts";

/** Markups above this are a typo, not a price (a 1000 % markup is eleven times the cost). */
export const MAX_MARKUP_PERCENT = 1000;

/** The details an admin types on the Create and Edit Reseller screens. */
export interface ResellerDetailsInput {
  name: string;
  phone: string;
  email: string;
  remarks: string;
  disableDiscounts: boolean;
  /** Percent per game key (supplierName); mlbb, mlbb_global and mlbb_special are required. */
  markup: Record<string, DecimalInput>;
}

/**
 * Checks a markup map: the three Mobile Legends keys present, every percent a plain decimal
 * from 0 to MAX_MARKUP_PERCENT with at most 4 decimals. Returns it as numbers.
 */
export function normalizeMarkup(markup: Record<string, DecimalInput>): Record<string, number> {
  const missing = REQUIRED_MARKUP_KEYS.filter((key) => markup[key] === undefined);
  if (missing.length) {
    throw new ValidationError(`Price Markup % is required for ${missing.join(", ")}`);
  }
  const normalized: Record<string, number> = {};
  for (const [key, value] of Object.entries(markup)) {
    const label = `markup ${key}`;
    const { units, scale } = parseDecimal(value, { label, maxDecimals: 4 });
    if (units > BigInt(MAX_MARKUP_PERCENT) * 10n ** BigInt(scale)) {
      throw new ValidationError(`${label} must be at most ${MAX_MARKUP_PERCENT} %`);
    }
    normalized[key] = Number(String(value));
  }
  return normalized;
}

/** The reseller's fields an audit row may show: never a password, hash or TOTP secret. */
function auditView(row: ResellerPublicRow) {
  return {
    name: row.name,
    phone: row.phone,
    email: row.email,
    markup: row.markup,
    remarks: row.remarks,
    disableDiscounts: row.disable_discounts,
  };
}

/**
 * An admin creates a reseller (POST /api/reseller): rank 'Reseller', the starting balance as its
 * 'initial' history row, and the audit row, in one transaction. `createdBy` is the operator.
 */
export async function addReseller(
  db: Db,
  input: ResellerDetailsInput & { password: string; balance: DecimalInput },
  actor: OperatorActor,
  limits: { maxMoveDollars: string; twoFAEnabled: boolean },
): Promise<PublicReseller> {
  const balanceCents = dollarsToCents(input.balance, "balance");
  checkMoveCeiling(balanceCents, limits.maxMoveDollars, "balance");
  return await createReseller(db, {
    name: requireText(input.name, "Name"),
    email: input.email,
    phone: input.phone.trim(),
    password: input.password,
    balanceCents,
    markup: normalizeMarkup(input.markup),
    remarks: input.remarks,
    disableDiscounts: input.disableDiscounts,
    twoFAEnabled: limits.twoFAEnabled,
    createdBy: actor.name,
    actor,
  });
}

function requireText(value: string, label: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new ValidationError(`${label} is required`);
  return trimmed;
}

/**
 * An admin edits a reseller (PUT /api/reseller/{id}). A `balance` that differs from the stored
 * one is refused and nothing changes: balances move only through Top Up and Deduct, each with its
 * history row, and a form opened before an order would otherwise undo that order's debit. A new
 * password ends every session of the reseller, revokes its API keys and disables its webhook, in
 * the same transaction: whoever knew the old password could have made a key or pointed the
 * webhook at themselves, and a reset is how an admin shuts them out.
 */
export async function editReseller(
  db: Db,
  id: string,
  input: ResellerDetailsInput & { password?: string; balance?: DecimalInput },
  actor: OperatorActor,
): Promise<PublicReseller> {
  const markup = normalizeMarkup(input.markup);
  const name = requireText(input.name, "Name");
  const email = normalizeEmail(requireText(input.email, "Email"));
  const password = input.password ? input.password : undefined;
  if (password !== undefined) await assertPasswordAllowed(password, { email, name });
  const balanceCents = input.balance === undefined
    ? undefined
    : dollarsToCents(input.balance, "balance");
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  return await db.transaction().execute(async (trx) => {
    const before = await lockLiveReseller(trx, id);
    if (!before) throw new NotFoundError("Reseller not found");
    if (balanceCents !== undefined && balanceCents !== before.balance_cents) {
      throw new ConflictError(
        `The balance is ${
          centsToDollarString(before.balance_cents)
        } and changes only through Top Up or Deduct, which keep its history`,
      );
    }
    const after = await updateResellerDetails(trx, id, {
      name,
      email,
      phone: input.phone.trim(),
      markup,
      remarks: input.remarks,
      disable_discounts: input.disableDiscounts,
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
    });
    if (passwordHash !== undefined) {
      await deleteUserSessions(trx, "reseller", id);
      await revokeAllKeysIn(trx, id, actor, "password_reset");
      await disableWebhook(trx, id, actor, "password_reset");
    }
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "reseller.update",
      targetType: "reseller",
      targetId: id,
      before: auditView(before),
      after: { ...auditView(after), passwordChanged: passwordHash !== undefined },
    });
    return presentReseller(after);
  }).catch(rethrowUniqueViolation(name, email));
}

function rethrowUniqueViolation(name: string, email: string) {
  return (e: unknown): never => {
    const message = String((e as Error)?.message ?? e);
    if (message.includes("resellers_name_key")) {
      throw new ConflictError(`A reseller named ${name} already exists`);
    }
    if (message.includes("resellers_email_key")) {
      throw new ConflictError(`A reseller with email ${email} already exists`);
    }
    throw e;
  };
}

/**
 * An admin deletes a reseller (DELETE /api/reseller/{id}): a soft delete, so its orders and
 * balance history stay for the books; its sessions end at once.
 */
export async function removeReseller(db: Db, id: string, actor: OperatorActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await lockLiveReseller(trx, id);
    if (!before || !(await softDeleteReseller(trx, id))) {
      throw new NotFoundError("Reseller not found");
    }
    await deleteUserSessions(trx, "reseller", id);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "reseller.delete",
      targetType: "reseller",
      targetId: id,
      before: { ...auditView(before), balanceCents: before.balance_cents },
    });
  });
}

/** Live resellers by name whose name, email or phone contains `search` (GET /api/resellers). */
export async function listResellers(db: Db, search = ""): Promise<PublicReseller[]> {
  return (await listResellerRows(db))
    .filter((r) => matchesSearch([r.name, r.email, r.phone], search))
    .map(presentReseller);
}

/** One live reseller (the CLI finds them by email). */
export async function findLiveResellerByEmail(db: Db, email: string): Promise<PublicReseller> {
  const row = await findResellerByEmail(db, normalizeEmail(email));
  if (!row) throw new NotFoundError(`No reseller with email ${normalizeEmail(email)}`);
  return presentReseller(row);
}

/**
 * The one live reseller whose name is `name` in any case (the CLI's `orders export --reseller`);
 * a name that matches none or several is refused, naming the candidates.
 */
export async function findLiveResellerByName(
  db: Db,
  name: string,
): Promise<{ id: string; name: string }> {
  const matches = await findResellersByNameInsensitive(db, name);
  if (matches.length === 0) throw new NotFoundError(`No reseller named '${name}'`);
  if (matches.length > 1) {
    const names = matches.map((m) => `'${m.name}'`).join(", ");
    throw new ConflictError(`'${name}' matches several resellers (${names}); be exact`);
  }
  return { id: matches[0].id, name: matches[0].name };
}
