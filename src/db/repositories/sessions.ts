import { sql } from "kysely";
import { jsonObjectFrom } from "kysely/helpers/postgres";
import type { Db } from "../client.ts";
import { anyOfList, coalescePerHandle, inOrderOf } from "../coalesce.ts";
import type { SessionRow, SessionStage, UserType } from "../schema.ts";
import { ADMIN_PUBLIC_COLUMNS, type AdminPublicRow } from "./admins.ts";
import { RESELLER_PUBLIC_COLUMNS, type ResellerPublicRow } from "./resellers.ts";

/** A session's columns but the enrolment secret, which only `takeCodeAttempt` reads. */
const SESSION_COLUMNS = [
  "id_hash",
  "user_type",
  "user_id",
  "stage",
  "totp_failures",
  "created_at",
  "last_seen_at",
  "expires_at",
  "ip",
] as const;
export type SessionPublicRow = Pick<SessionRow, typeof SESSION_COLUMNS[number]>;

export async function insertSession(
  db: Db,
  session: {
    idHash: string;
    userType: UserType;
    userId: string;
    stage: SessionStage;
    expiresAt: Date;
    ip: string;
    /** An enrolment session's own sealed TOTP secret. */
    totpSecretEnc?: string;
  },
): Promise<void> {
  await db.insertInto("sessions").values({
    id_hash: session.idHash,
    user_type: session.userType,
    user_id: session.userId,
    stage: session.stage,
    expires_at: session.expiresAt,
    ip: session.ip,
    totp_secret_enc: session.totpSecretEnc ?? null,
  }).execute();
}

/** A live session with its user's public columns (the user null when the account is gone). */
export interface LiveSession {
  session: SessionPublicRow;
  admin: AdminPublicRow | null;
  reseller: ResellerPublicRow | null;
}

/**
 * Live sessions with their users' public columns, in one query; one answer per hash, in order
 * (undefined where no live session has it). The user is null when the account is gone (or the
 * reseller deleted).
 */
export async function findLiveSessionsWithUsers(
  db: Db,
  idHashes: string[],
): Promise<(LiveSession | undefined)[]> {
  const rows = await db.selectFrom("sessions").select(
    SESSION_COLUMNS.map((c) => `sessions.${c}` as const),
  )
    .select((eb) => [
      jsonObjectFrom(
        eb.selectFrom("admins").select(ADMIN_PUBLIC_COLUMNS)
          .whereRef("admins.id", "=", "sessions.user_id")
          .where("sessions.user_type", "=", "admin"),
      ).as("admin"),
      jsonObjectFrom(
        eb.selectFrom("resellers").select(RESELLER_PUBLIC_COLUMNS)
          .whereRef("resellers.id", "=", "sessions.user_id")
          .where("sessions.user_type", "=", "reseller")
          .where("resellers.deleted_at", "is", null),
      ).as("reseller"),
    ])
    .where(sql<boolean>`id_hash = ${anyOfList(idHashes)}`)
    .where("expires_at", ">", new Date())
    .execute();
  const found = rows.map(({ admin, reseller, ...session }) => ({
    session,
    // The users arrive as JSON: timestamps as text, bigint as a JSON number.
    admin: admin && { ...admin, created_at: new Date(admin.created_at) },
    reseller: reseller &&
      {
        ...reseller,
        balance_cents: Number(reseller.balance_cents),
        created_at: new Date(reseller.created_at),
      },
  }));
  return inOrderOf(idHashes, found, (f) => f.session.id_hash);
}

/**
 * The live session with this hash and its user: every signed-in request asks this, so the
 * lookups of requests that arrive in the same turn go out as one statement.
 */
export const findLiveSessionWithUser: (db: Db, idHash: string) => Promise<LiveSession | undefined> =
  coalescePerHandle(() => "", (idHash) => idHash, findLiveSessionsWithUsers);

export async function touchSession(
  db: Db,
  idHash: string,
  now: Date,
): Promise<void> {
  await db.updateTable("sessions").set({ last_seen_at: now }).where(
    "id_hash",
    "=",
    idHash,
  )
    .execute();
}

/** Ends one session; true when it was there to end. */
export async function deleteSession(db: Db, idHash: string): Promise<boolean> {
  const r = await db.deleteFrom("sessions").where("id_hash", "=", idHash).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Ends every session of a user except, optionally, one to keep. */
export async function deleteUserSessions(
  db: Db,
  userType: UserType,
  userId: string,
  exceptIdHash?: string,
): Promise<void> {
  let q = db.deleteFrom("sessions").where("user_type", "=", userType).where(
    "user_id",
    "=",
    userId,
  );
  if (exceptIdHash) q = q.where("id_hash", "<>", exceptIdHash);
  await q.execute();
}

/**
 * Ends every session of a user still waiting for its second factor (enrolment or code) and
 * returns their id hashes.
 */
export async function deletePendingSessions(
  db: Db,
  userType: UserType,
  userId: string,
): Promise<string[]> {
  const rows = await db.deleteFrom("sessions")
    .where("user_type", "=", userType)
    .where("user_id", "=", userId)
    .where("stage", "<>", "active")
    .returning("id_hash")
    .execute();
  return rows.map((r) => r.id_hash);
}

/** The sealed secret a live enrolment session was issued, if it is one. */
export async function findEnrolmentSecret(
  db: Db,
  idHash: string,
): Promise<string | null> {
  const row = await db.selectFrom("sessions").select("totp_secret_enc")
    .where("id_hash", "=", idHash)
    .where("stage", "=", "enrol")
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
  return row?.totp_secret_enc ?? null;
}

/**
 * Takes one of a pending sign-in's code attempts before its code is checked: the count and the
 * limit are one statement, so parallel requests never get more than `maxAttempts` codes checked.
 * Returns the session with the attempts now used (and an enrolment session's own secret), or
 * undefined when it is not pending, has expired or has used them all.
 */
export async function takeCodeAttempt(
  db: Db,
  idHash: string,
  maxAttempts: number,
): Promise<
  | Pick<
    SessionRow,
    "user_type" | "user_id" | "stage" | "ip" | "totp_failures" | "totp_secret_enc"
  >
  | undefined
> {
  return await db.updateTable("sessions")
    .set((eb) => ({ totp_failures: eb("totp_failures", "+", 1) }))
    .where("id_hash", "=", idHash)
    .where("stage", "<>", "active")
    .where("expires_at", ">", new Date())
    .where("totp_failures", "<", maxAttempts)
    .returning(["user_type", "user_id", "stage", "ip", "totp_failures", "totp_secret_enc"])
    .executeTakeFirst();
}

/** Deletes sessions past their expiry; returns how many. */
export async function deleteExpiredSessions(db: Db): Promise<number> {
  const r = await db.deleteFrom("sessions").where("expires_at", "<=", sql<Date>`now()`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
