import type { Db } from "../client.ts";
import type { SessionRow, SessionStage, UserType } from "../schema.ts";

export async function insertSession(
  db: Db,
  session: {
    idHash: string;
    userType: UserType;
    userId: string;
    stage: SessionStage;
    expiresAt: Date;
    ip: string;
  },
): Promise<void> {
  await db.insertInto("sessions").values({
    id_hash: session.idHash,
    user_type: session.userType,
    user_id: session.userId,
    stage: session.stage,
    expires_at: session.expiresAt,
    ip: session.ip,
  }).execute();
}

export async function findLiveSession(
  db: Db,
  idHash: string,
): Promise<SessionRow | undefined> {
  return await db.selectFrom("sessions").selectAll()
    .where("id_hash", "=", idHash)
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
}

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

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
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

/** Counts a failed code on the session; returns the new count. */
export async function addSessionTotpFailure(
  db: Db,
  idHash: string,
): Promise<number> {
  const row = await db.updateTable("sessions")
    .set((eb) => ({ totp_failures: eb("totp_failures", "+", 1) }))
    .where("id_hash", "=", idHash)
    .returning("totp_failures")
    .executeTakeFirst();
  return row?.totp_failures ?? 0;
}
