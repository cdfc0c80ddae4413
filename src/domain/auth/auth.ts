import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { SessionStage, UserType } from "../../db/schema.ts";
import { findAdminPublicById, findAdminSignIn } from "../../db/repositories/admins.ts";
import { findResellerPublicById, findResellerSignIn } from "../../db/repositories/resellers.ts";
import {
  deleteSession,
  findLiveSessionWithUser,
  insertSession,
  takeCodeAttempt,
  touchSession,
} from "../../db/repositories/sessions.ts";
import { claimTotpStep, setTotpSecret } from "../../db/repositories/totp-steps.ts";
import { burnPasswordCheck, verifyPassword } from "./passwords.ts";
import type { SecretBox } from "./secret-box.ts";
import { enrolmentQr, generateTotpSecret, matchTotpStep } from "./totp.ts";
import {
  forgetFailures,
  LOGIN_PER_ACCOUNT,
  LOGIN_PER_IP,
  releaseAttempt,
  takeAttempts,
  TOTP_PER_ACCOUNT,
} from "./rate-limit.ts";
import { UnauthenticatedError } from "../errors.ts";
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
  | { kind: "signed_in"; token: string; user: PublicUser };

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

async function startSession(
  ctx: AuthContext,
  userType: UserType,
  userId: string,
  stage: SessionStage,
  ip: string,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const lifetimeMs = stage === "active"
    ? ctx.sessionAbsoluteHours * 3600_000
    : PENDING_SESSION_MINUTES * 60_000;
  await insertSession(ctx.db, {
    idHash: hashToken(token),
    userType,
    userId,
    stage,
    expiresAt: new Date(Date.now() + lifetimeMs),
    ip,
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

async function findAccountById(db: Db, userType: UserType, id: string) {
  const row = userType === "admin"
    ? await findAdminSignIn(db, "id", id)
    : await findResellerSignIn(db, "id", id);
  return row ? { secretEnc: row.totp_secret_enc, email: row.email } : null;
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
 * checked (so parallel guesses never pass a limit), and every failure looks the same. Without two-factor the session is active at once; otherwise the session waits for a
 * code, and an account that never enrolled gets a fresh secret and its QR code (HTTP 202).
 */
export async function signIn(
  ctx: AuthContext,
  input: {
    userType: UserType;
    email: string;
    password: string;
    code?: string;
    ip: string;
  },
): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const accountKey = `${input.userType}:${email}`;
  await takeAttempts(ctx.db, [
    { limit: LOGIN_PER_ACCOUNT, key: accountKey },
    { limit: LOGIN_PER_IP, key: input.ip },
  ]);

  const account = await findAccount(ctx.db, input.userType, email);
  const ok = account
    ? await verifyPassword(input.password, account.passwordHash)
    : (await burnPasswordCheck(input.password), false);
  if (!account || !ok) throw new UnauthenticatedError(LOGIN_FAILED);
  await forgetFailures(ctx.db, LOGIN_PER_ACCOUNT, accountKey);
  // The address keeps the failures of every other account it tried: a sprayer who also owns an
  // account cannot wipe them by signing in to it.
  await releaseAttempt(ctx.db, LOGIN_PER_IP, input.ip);
  const user = (await loadPublicUser(ctx.db, input.userType, account.id))!;

  if (!account.needsTwoFactor) {
    const token = await startSession(
      ctx,
      input.userType,
      account.id,
      "active",
      input.ip,
    );
    return { kind: "signed_in", token, user };
  }

  if (!account.totpConfirmed || !account.totpSecretEnc) {
    const secret = generateTotpSecret();
    await setTotpSecret(ctx.db, input.userType, account.id, {
      secretEnc: ctx.box.seal(secret),
      confirmed: false,
    });
    const token = await startSession(
      ctx,
      input.userType,
      account.id,
      "enrol",
      input.ip,
    );
    const qr = await enrolmentQr(secret, account.email);
    return {
      kind: "enrol",
      token,
      user: { ...user, twoFAEnabled: true } as PublicUser,
      qr,
      secret,
    };
  }

  const token = await startSession(
    ctx,
    input.userType,
    account.id,
    "password_ok",
    input.ip,
  );
  if (input.code) {
    try {
      return {
        kind: "signed_in",
        ...(await verifySecondFactor(ctx, {
          token,
          code: input.code,
          ip: input.ip,
        })),
      };
    } catch (e) {
      if (!(e instanceof UnauthenticatedError)) throw e;
    }
  }
  return { kind: "second_factor", token, user };
}

/**
 * Checks a TOTP code for a session that passed the password. The secret is the one the server
 * holds; a code is accepted once; after more than 2 failures the session ends and sign-in starts
 * over. Each try is counted on the session and on the account before the code is looked at, so no
 * parallelism gets more codes checked than those limits. Success replaces the session with a new,
 * active one.
 */
export async function verifySecondFactor(
  ctx: AuthContext,
  input: { token: string; code: string; ip: string },
): Promise<{ token: string; user: PublicUser }> {
  const idHash = hashToken(input.token);
  const session = await takeCodeAttempt(ctx.db, idHash, MAX_CODE_FAILURES_PER_SIGN_IN + 1);
  if (!session) throw new UnauthenticatedError(CODE_FAILED);
  const accountKey = `${session.user_type}:${session.user_id}`;
  await takeAttempts(ctx.db, [{ limit: TOTP_PER_ACCOUNT, key: accountKey }]);

  const account = await findAccountById(
    ctx.db,
    session.user_type,
    session.user_id,
  );
  const secret = account?.secretEnc ? ctx.box.open(account.secretEnc) : null;
  const step = secret ? matchTotpStep(secret, input.code.trim()) : null;
  const claimed = step !== null &&
    await claimTotpStep(
      ctx.db,
      session.user_type,
      session.user_id,
      step,
      session.stage === "enrol",
    );
  if (!claimed) {
    if (session.totp_failures > MAX_CODE_FAILURES_PER_SIGN_IN) {
      await deleteSession(ctx.db, idHash);
    }
    throw new UnauthenticatedError(CODE_FAILED);
  }
  await forgetFailures(ctx.db, TOTP_PER_ACCOUNT, accountKey);
  await deleteSession(ctx.db, idHash);
  const token = await startSession(
    ctx,
    session.user_type,
    session.user_id,
    "active",
    session.ip,
  );
  const user = await loadPublicUser(ctx.db, session.user_type, session.user_id);
  if (!user) throw new UnauthenticatedError(CODE_FAILED);
  return { token, user };
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

/** The QR code and secret for a session still enrolling (the /2fa page shows them again on reload). */
export async function enrolmentFor(
  ctx: AuthContext,
  session: CurrentSession,
): Promise<{ qr: string; secret: string } | null> {
  if (session.stage !== "enrol") return null;
  const account = await findAccountById(
    ctx.db,
    session.userType,
    session.user._id,
  );
  if (!account?.secretEnc) return null;
  const secret = ctx.box.open(account.secretEnc);
  return { qr: await enrolmentQr(secret, account.email), secret };
}
