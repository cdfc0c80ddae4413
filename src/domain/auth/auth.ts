import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { SessionStage, UserType } from "../../db/schema.ts";
import {
  findAdminByEmail,
  findAdminPublicById,
  findAdminSignIn,
} from "../../db/repositories/admins.ts";
import { findResellerPublicById, findResellerSignIn } from "../../db/repositories/resellers.ts";
import {
  deletePendingSessions,
  deleteSession,
  deleteUserSessions,
  findEnrolmentSecret,
  findLiveSessionWithUser,
  insertSession,
  takeCodeAttempt,
  touchSession,
} from "../../db/repositories/sessions.ts";
import {
  claimTotpStep,
  clearTotpSecret,
  confirmTotpSecret,
} from "../../db/repositories/totp-steps.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { burnPasswordCheck, verifyPassword } from "./passwords.ts";
import { isPublishedPassword } from "./password-policy.ts";
import type { SecretBox } from "./secret-box.ts";
import { enrolmentQr, generateTotpSecret, matchTotpStep } from "./totp.ts";
import {
  addressKey,
  forgetFailures,
  LOGIN_PER_ACCOUNT,
  LOGIN_PER_DEVICE,
  LOGIN_PER_IP,
  LOGIN_PER_SOURCE,
  releaseAttempt,
  takeAttempts,
  TOTP_PER_ACCOUNT,
} from "./rate-limit.ts";
import { knownDeviceId, rememberDevice } from "./devices.ts";
import { NotFoundError, UnauthenticatedError } from "../errors.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { normalizeEmail, presentAdmin, presentReseller, type PublicUser } from "./users.ts";

/** Spec §8: every sign-in failure reads the same, so accounts cannot be discovered. */
export const LOGIN_FAILED = "Please check your email or password.";
/** Spec §8: a wrong, reused or expired code. */
export const CODE_FAILED = "Verification failed, Please try again.";
/** Spec §4/§9: after more than 2 failed codes the sign-in starts over. */
export const MAX_CODE_FAILURES_PER_SIGN_IN = 2;

const PENDING_SESSION_MINUTES = 10;

export interface AuthContext {
  db: Db;
  box: SecretBox;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /**
   * Production: a password this repository publishes never signs in, whatever account still
   * carries it (an account left over from a demo, an example copied from the README).
   */
  refusePublishedPasswords?: boolean;
}

export type SignInResult =
  | {
    kind: "enrol";
    token: string;
    user: PublicUser;
    qr: string;
    secret: string;
  }
  | { kind: "second_factor"; token: string; user: PublicUser }
  | SignedIn;

/** A finished sign-in: the active session and the device cookie that now knows this browser. */
export interface SignedIn {
  kind: "signed_in";
  token: string;
  user: PublicUser;
  device: string;
}

export interface CurrentSession {
  idHash: string;
  stage: SessionStage;
  userType: UserType;
  user: PublicUser;
}

/** The stored form of a session token: only its hash reaches the database. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Starts a session through `db` (the context's, or a transaction) and returns its token. */
async function startSession(
  ctx: AuthContext,
  db: Db,
  session: {
    userType: UserType;
    userId: string;
    stage: SessionStage;
    ip: string;
    totpSecretEnc?: string;
  },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const lifetimeMs = session.stage === "active"
    ? ctx.sessionAbsoluteHours * 3600_000
    : PENDING_SESSION_MINUTES * 60_000;
  await insertSession(db, {
    ...session,
    idHash: hashToken(token),
    expiresAt: new Date(Date.now() + lifetimeMs),
  });
  return token;
}

interface Account {
  id: string;
  email: string;
  passwordHash: string;
  needsTwoFactor: boolean;
  totpSecretEnc: string | null;
  totpConfirmed: boolean;
}

async function findAccount(
  db: Db,
  userType: UserType,
  email: string,
): Promise<Account | null> {
  if (userType === "admin") {
    const a = await findAdminSignIn(db, "email", email);
    return a
      ? {
        id: a.id,
        email: a.email,
        passwordHash: a.password_hash,
        needsTwoFactor: true, // Admins always use two-factor (quality bar).
        totpSecretEnc: a.totp_secret_enc,
        totpConfirmed: a.totp_confirmed,
      }
      : null;
  }
  const r = await findResellerSignIn(db, "email", email);
  return r
    ? {
      id: r.id,
      email: r.email,
      passwordHash: r.password_hash,
      needsTwoFactor: r.two_fa_enabled,
      totpSecretEnc: r.totp_secret_enc,
      totpConfirmed: r.totp_confirmed,
    }
    : null;
}

/** An account's confirmed TOTP secret (sealed), if it has one. */
async function findConfirmedSecret(db: Db, userType: UserType, id: string) {
  const row = userType === "admin"
    ? await findAdminSignIn(db, "id", id)
    : await findResellerSignIn(db, "id", id);
  return row?.totp_confirmed ? row.totp_secret_enc : null;
}

async function loadPublicUser(
  db: Db,
  userType: UserType,
  id: string,
): Promise<PublicUser | null> {
  if (userType === "admin") {
    const row = await findAdminPublicById(db, id);
    return row ? presentAdmin(row) : null;
  }
  const row = await findResellerPublicById(db, id);
  return row ? presentReseller(row) : null;
}

/**
 * Checks email and password. The attempt is counted against the throttles before the password is
 * checked (so parallel guesses never pass a limit): a browser the account signed in on before
 * against its own count, any other against the account from its address, the address and the
 * account (rate-limit.ts). Every failure looks the same. Without two-factor the session is active
 * at once; otherwise the session waits for a code, and an account that never confirmed a secret
 * gets a fresh one, its session's own, and its QR code (HTTP 202).
 */
export async function signIn(
  ctx: AuthContext,
  input: {
    userType: UserType;
    email: string;
    password: string;
    code?: string;
    ip: string;
    /** The browser's device cookie, if it sent one. */
    device?: string;
  },
): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const accountKey = `${input.userType}:${email}`;
  const deviceId = knownDeviceId(ctx.box, input.device, { userType: input.userType, email });
  const deviceKey = JSON.stringify([input.userType, email, deviceId]);
  const sourceKey = JSON.stringify([input.userType, email, addressKey(input.ip)]);
  await takeAttempts(
    ctx.db,
    deviceId ? [{ limit: LOGIN_PER_DEVICE, key: deviceKey }] : [
      { limit: LOGIN_PER_SOURCE, key: sourceKey },
      { limit: LOGIN_PER_IP, key: input.ip },
      { limit: LOGIN_PER_ACCOUNT, key: accountKey },
    ],
  );

  const account = await findAccount(ctx.db, input.userType, email);
  const refused = ctx.refusePublishedPasswords === true && isPublishedPassword(input.password);
  const ok = account && !refused
    ? await verifyPassword(input.password, account.passwordHash)
    : (await burnPasswordCheck(input.password), false);
  if (!account || !ok) throw new UnauthenticatedError(LOGIN_FAILED);
  if (deviceId) {
    await forgetFailures(ctx.db, LOGIN_PER_DEVICE, deviceKey);
  } else {
    await forgetFailures(ctx.db, LOGIN_PER_SOURCE, sourceKey);
    // The shared counts keep the failures of everyone else: a sprayer who owns an account cannot
    // wipe its address's count by signing in to it, nor the owner the strangers' on the account.
    await releaseAttempt(ctx.db, LOGIN_PER_IP, input.ip);
    await releaseAttempt(ctx.db, LOGIN_PER_ACCOUNT, accountKey);
  }
  const user = (await loadPublicUser(ctx.db, input.userType, account.id))!;

  const session = { userType: input.userType, userId: account.id, ip: input.ip };
  if (!account.needsTwoFactor) {
    const token = await startSession(ctx, ctx.db, { ...session, stage: "active" });
    const device = rememberDevice(ctx.box, input.device, { userType: input.userType, email });
    return { kind: "signed_in", token, user, device };
  }

  if (!account.totpConfirmed || !account.totpSecretEnc) {
    // The secret stays this session's alone until a code from it is confirmed: another pending
    // sign-in of the account (whoever else knows the password) never sees or accepts it.
    const secret = generateTotpSecret();
    const token = await startSession(ctx, ctx.db, {
      ...session,
      stage: "enrol",
      totpSecretEnc: ctx.box.seal(secret),
    });
    const qr = await enrolmentQr(secret, account.email);
    return {
      kind: "enrol",
      token,
      user: { ...user, twoFAEnabled: true } as PublicUser,
      qr,
      secret,
    };
  }

  const token = await startSession(ctx, ctx.db, { ...session, stage: "password_ok" });
  if (input.code) {
    try {
      return await verifySecondFactor(ctx, { token, code: input.code, device: input.device });
    } catch (e) {
      if (!(e instanceof UnauthenticatedError)) throw e;
    }
  }
  return { kind: "second_factor", token, user };
}

/**
 * Checks a TOTP code for a session that passed the password. The secret is the one the server
 * holds: the account's confirmed one, or the one an enrolment session was issued; a code is
 * accepted once; after more than 2 failures the session ends and sign-in starts over. Each try is
 * counted on the session and on the account before the code is looked at, so no parallelism gets
 * more codes checked than those limits. Success replaces the session with a new, active one;
 * confirming an enrolment also ends every other pending session of the account.
 */
export async function verifySecondFactor(
  ctx: AuthContext,
  input: { token: string; code: string; device?: string },
): Promise<SignedIn> {
  const idHash = hashToken(input.token);
  const session = await takeCodeAttempt(ctx.db, idHash, MAX_CODE_FAILURES_PER_SIGN_IN + 1);
  if (!session) throw new UnauthenticatedError(CODE_FAILED);
  const accountKey = `${session.user_type}:${session.user_id}`;
  await takeAttempts(ctx.db, [{ limit: TOTP_PER_ACCOUNT, key: accountKey }]);

  const enrolling = session.stage === "enrol";
  const sealed = enrolling
    ? session.totp_secret_enc
    : await findConfirmedSecret(ctx.db, session.user_type, session.user_id);
  const step = sealed ? matchTotpStep(ctx.box.open(sealed), input.code.trim()) : null;
  const token = step === null ? null : await ctx.db.transaction().execute(async (trx) => {
    const { user_type: userType, user_id: userId } = session;
    // The account's row first, then its sessions: the order of a reset or a password change too.
    const claimed = enrolling
      ? await confirmTotpSecret(trx, userType, userId, sealed!, step)
      : await claimTotpStep(trx, userType, userId, step);
    if (!claimed) return null;
    const ended = enrolling
      ? (await deletePendingSessions(trx, userType, userId)).includes(idHash)
      : await deleteSession(trx, idHash);
    // A reset or a password change ended this session while its code was checked.
    if (!ended) throw new UnauthenticatedError(CODE_FAILED);
    return await startSession(ctx, trx, { userType, userId, stage: "active", ip: session.ip });
  });
  if (!token) {
    if (session.totp_failures > MAX_CODE_FAILURES_PER_SIGN_IN) {
      await deleteSession(ctx.db, idHash);
    }
    throw new UnauthenticatedError(CODE_FAILED);
  }
  await forgetFailures(ctx.db, TOTP_PER_ACCOUNT, accountKey);
  const user = await loadPublicUser(ctx.db, session.user_type, session.user_id);
  if (!user) throw new UnauthenticatedError(CODE_FAILED);
  const device = rememberDevice(ctx.box, input.device, {
    userType: session.user_type,
    email: user.email,
  });
  return { kind: "signed_in", token, user, device };
}

/** Resolves a cookie token to its session and user, ending it when idle for too long. */
export async function loadSession(
  ctx: Pick<AuthContext, "db" | "sessionIdleMinutes">,
  token: string,
): Promise<CurrentSession | null> {
  const idHash = hashToken(token);
  const found = await findLiveSessionWithUser(ctx.db, idHash);
  if (!found) return null;
  const { session, admin, reseller } = found;
  const now = new Date();
  const idleMs = now.getTime() - session.last_seen_at.getTime();
  if (session.stage === "active" && idleMs > ctx.sessionIdleMinutes * 60_000) {
    await deleteSession(ctx.db, idHash);
    return null;
  }
  // Touch at most once a minute: one write per active user per minute, not per request.
  if (idleMs > 60_000) await touchSession(ctx.db, idHash, now);
  const user = admin ? presentAdmin(admin) : reseller ? presentReseller(reseller) : null;
  if (!user) {
    await deleteSession(ctx.db, idHash);
    return null;
  }
  return { idHash, stage: session.stage, userType: session.user_type, user };
}

/** Ends a session on the server; the cookie alone can no longer sign anyone in. */
export async function signOut(db: Db, token: string): Promise<void> {
  await deleteSession(db, hashToken(token));
}

/**
 * The QR code and secret of a session still enrolling (the /2fa page shows them again on reload):
 * only the secret that session was issued, and nothing once an enrolment is confirmed (that ends
 * the session).
 */
export async function enrolmentFor(
  ctx: AuthContext,
  session: CurrentSession,
): Promise<{ qr: string; secret: string } | null> {
  if (session.stage !== "enrol") return null;
  const sealed = await findEnrolmentSecret(ctx.db, session.idHash);
  if (!sealed) return null;
  const secret = ctx.box.open(sealed);
  return { qr: await enrolmentQr(secret, session.user.email), secret };
}

/**
 * Clears an admin's authenticator (`admin reset-2fa`): the next sign-in enrols again. In one
 * transaction with ending every session of the admin, pending ones included, so no enrolment
 * begun before the reset can confirm its secret after it.
 */
export async function resetAdminTwoFactor(
  db: Db,
  email: string,
  actor: OperatorActor,
): Promise<void> {
  const admin = await findAdminByEmail(db, normalizeEmail(email));
  if (!admin) throw new NotFoundError(`No admin with email ${normalizeEmail(email)}`);
  await db.transaction().execute(async (trx) => {
    await clearTotpSecret(trx, "admin", admin.id);
    await deleteUserSessions(trx, "admin", admin.id);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "admin.reset_2fa",
      targetType: "admin",
      targetId: admin.id,
    });
  });
}
