// Reseller API keys: issued and revoked by the reseller on My Account, revoked by an
// admin on the reseller's edit page (one or all), and all revoked by an admin's password reset,
// each audited, as is each key's first use of the day. Only /api/v1 reads them
// (server/reseller-api.ts).
import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/schema.ts";
import {
  type ApiKeyPublicRow,
  findLiveApiKey,
  insertApiKey,
  listApiKeys,
  markApiKeyUsedToday,
  revokeApiKey,
  revokeLiveApiKeys,
  touchApiKey,
} from "../../db/repositories/api-keys.ts";
import { findResellerPublicById, lockLiveReseller } from "../../db/repositories/resellers.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import {
  API_KEY_SECRET_PREFIX,
  type ApiKeyDto,
  type CreatedApiKeyDto,
} from "../../shared/api-key-types.ts";
import { auditActor, type OperatorActor, type ResellerActor } from "../actor.ts";
import { NotFoundError, UnauthenticatedError, ValidationError } from "../errors.ts";

/** A reseller keeps at most this many live keys (one per shop or bot is plenty). */
export const MAX_LIVE_KEYS = 20;

/** A key's last use is recorded at most this often (seconds). */
const LAST_USED_PRECISION_SECONDS = 60;

/** Shown characters of a secret: the prefix and four random characters. */
const SHOWN_LENGTH = API_KEY_SECRET_PREFIX.length + 4;

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function presentKey(row: ApiKeyPublicRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** A reseller's keys, newest first (revoked ones stay listed as revoked). */
export async function listResellerApiKeys(db: Db, resellerId: string): Promise<ApiKeyDto[]> {
  return (await listApiKeys(db, resellerId)).map(presentKey);
}

/**
 * Issues a key: 32 random bytes (256 bits) behind a recognisable prefix. The secret is returned
 * once; only its SHA-256 is stored (a fast hash is enough for a secret of this entropy). The
 * reseller issues keys on My Account; an operator may issue one for them with the CLI.
 */
export async function createApiKey(
  db: Db,
  resellerId: string,
  name: string,
  actor: OperatorActor | ResellerActor,
): Promise<CreatedApiKeyDto> {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError("name: Please name the key");
  const live = (await listApiKeys(db, resellerId)).filter((k) => !k.revoked_at).length;
  if (live >= MAX_LIVE_KEYS) {
    throw new ValidationError(`You can have at most ${MAX_LIVE_KEYS} active keys`);
  }
  const secret = API_KEY_SECRET_PREFIX + randomBytes(32).toString("base64url");
  const row = await db.transaction().execute(async (trx) => {
    const created = await insertApiKey(trx, {
      resellerId,
      name: trimmed,
      prefix: secret.slice(0, SHOWN_LENGTH),
      secretHash: hashSecret(secret),
    });
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "api_key.create",
      targetType: "reseller",
      targetId: resellerId,
      after: { keyId: created.id, name: created.name, prefix: created.prefix },
    });
    return created;
  });
  return { key: presentKey(row), secret };
}

/** Revokes one of a reseller's keys, at once for every instance; audited with who did it. */
export async function revokeResellerApiKey(
  db: Db,
  resellerId: string,
  keyId: string,
  actor: OperatorActor | ResellerActor,
): Promise<ApiKeyDto> {
  const row = await db.transaction().execute(async (trx) => {
    const revoked = await revokeApiKey(trx, resellerId, keyId);
    if (!revoked) throw new NotFoundError("API key not found");
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "api_key.revoke",
      targetType: "reseller",
      targetId: resellerId,
      before: { keyId, name: revoked.name, prefix: revoked.prefix, revokedAt: null },
      after: { keyId, revokedAt: revoked.revoked_at?.toISOString() },
    });
    return revoked;
  });
  return presentKey(row);
}

/**
 * Revokes every live key of a reseller in the caller's transaction, one audit row per key with
 * `reason` ("password_reset", "revoke_all"); the keys it revoked.
 */
export async function revokeAllKeysIn(
  trx: Transaction<Database>,
  resellerId: string,
  actor: OperatorActor,
  reason: string,
): Promise<ApiKeyDto[]> {
  const revoked = await revokeLiveApiKeys(trx, resellerId);
  for (const key of revoked) {
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "api_key.revoke",
      targetType: "reseller",
      targetId: resellerId,
      before: { keyId: key.id, name: key.name, prefix: key.prefix, revokedAt: null },
      after: { keyId: key.id, revokedAt: key.revoked_at?.toISOString(), reason },
    });
  }
  return revoked.map(presentKey);
}

/** An admin's "Revoke all keys": every live key of the reseller, at once, each audited. */
export async function revokeAllResellerApiKeys(
  db: Db,
  resellerId: string,
  actor: OperatorActor,
): Promise<ApiKeyDto[]> {
  return await db.transaction().execute(async (trx) => {
    if (!await lockLiveReseller(trx, resellerId)) throw new NotFoundError("Reseller not found");
    return await revokeAllKeysIn(trx, resellerId, actor, "revoke_all");
  });
}

/** Midnight UTC of `now`: a key's first use after it writes an audit row. */
function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The reseller a bearer secret belongs to; a missing, unknown or revoked key is a 401. A key's
 * first use of each day (UTC) writes an `api_key.use` audit row, with the use recorded in the
 * same transaction so parallel first uses write one; later uses only move `last_used_at`, at most
 * once a minute. An audit row per request would make the log a request log (300 a minute per
 * key) and every request a write; a row per key and day says which keys are in use and when each
 * one started being used again, and `last_used_at` when it was last.
 */
export async function authenticateApiKey(db: Db, secret: string | undefined) {
  if (!secret || !secret.startsWith(API_KEY_SECRET_PREFIX) || secret.length > 200) {
    throw new UnauthenticatedError("A valid API key is required");
  }
  const key = await findLiveApiKey(db, hashSecret(secret));
  const reseller = key && await findResellerPublicById(db, key.reseller_id);
  if (!key || !reseller) throw new UnauthenticatedError("A valid API key is required");
  const lastUsed = key.last_used_at?.getTime() ?? 0;
  const today = startOfUtcDay(new Date());
  if (lastUsed < today.getTime()) {
    await db.transaction().execute(async (trx) => {
      if (!await markApiKeyUsedToday(trx, key.id)) return;
      await insertAudit(trx, {
        actorType: "reseller",
        actorId: reseller.id,
        actorName: reseller.name,
        action: "api_key.use",
        targetType: "reseller",
        targetId: reseller.id,
        after: {
          keyId: key.id,
          name: key.name,
          prefix: key.prefix,
          day: today.toISOString().slice(0, 10),
        },
      });
    });
  } else if (Date.now() - lastUsed > LAST_USED_PRECISION_SECONDS * 1000) {
    await touchApiKey(db, key.id, LAST_USED_PRECISION_SECONDS);
  }
  return { keyId: key.id, reseller };
}
