import type { Db } from "../client.ts";
import type { UserType } from "../schema.ts";

/**
 * Records `step` as the last accepted TOTP step if it is newer than the stored one.
 * One conditional update, so two requests racing with the same code cannot both win.
 */
export async function claimTotpStep(
  db: Db,
  userType: UserType,
  userId: string,
  step: number,
  confirm: boolean,
): Promise<boolean> {
  const table = userType === "admin" ? "admins" : "resellers";
  const result = await db.updateTable(table)
    .set({ totp_last_step: step, ...(confirm ? { totp_confirmed: true } : {}) })
    .where("id", "=", userId)
    .where("totp_last_step", "<", step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Stores a (sealed) TOTP secret for enrolment, or clears it; the step counter restarts. */
export async function setTotpSecret(
  db: Db,
  userType: UserType,
  userId: string,
  totp: { secretEnc: string | null; confirmed: boolean },
): Promise<void> {
  const table = userType === "admin" ? "admins" : "resellers";
  await db.updateTable(table)
    .set({
      totp_secret_enc: totp.secretEnc,
      totp_confirmed: totp.confirmed,
      totp_last_step: 0,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
}
