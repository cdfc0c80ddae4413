import type { Db } from "../client.ts";
import type { UserType } from "../schema.ts";

const tableOf = (userType: UserType) => userType === "admin" ? "admins" : "resellers";

/**
 * Records `step` as the last accepted TOTP step of a confirmed secret if it is newer than the
 * stored one. One conditional update, so two requests racing with the same code cannot both win.
 */
export async function claimTotpStep(
  db: Db,
  userType: UserType,
  userId: string,
  step: number,
): Promise<boolean> {
  const result = await db.updateTable(tableOf(userType))
    .set({ totp_last_step: step })
    .where("id", "=", userId)
    .where("totp_confirmed", "=", true)
    .where("totp_last_step", "<", step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Makes an enrolment's (sealed) secret the account's, confirmed, with `step` as its last accepted
 * step, unless the account has confirmed a secret meanwhile: of two enrolments only one wins.
 */
export async function confirmTotpSecret(
  db: Db,
  userType: UserType,
  userId: string,
  secretEnc: string,
  step: number,
): Promise<boolean> {
  const result = await db.updateTable(tableOf(userType))
    .set({
      totp_secret_enc: secretEnc,
      totp_confirmed: true,
      totp_last_step: step,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .where("totp_confirmed", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Forgets an account's TOTP secret: its next sign-in enrols again. */
export async function clearTotpSecret(
  db: Db,
  userType: UserType,
  userId: string,
): Promise<void> {
  await db.updateTable(tableOf(userType))
    .set({
      totp_secret_enc: null,
      totp_confirmed: false,
      totp_last_step: 0,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
}
