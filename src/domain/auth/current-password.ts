// Changing one's own password asks for the current one (OWASP ASVS 2.1.6), so
// a session left open or stolen cannot lock its owner out. An admin resetting someone else's
// password does not: that is the reset door, audited where it happens.
import type { Db } from "../../db/client.ts";
import type { UserType } from "../../db/schema.ts";
import { findAdminSignIn } from "../../db/repositories/admins.ts";
import { findResellerSignIn } from "../../db/repositories/resellers.ts";
import { verifyPassword } from "./passwords.ts";
import {
  forgetFailures,
  takeRateLimit,
  THROTTLED_MESSAGE,
  type WindowLimit,
} from "./rate-limit.ts";
import { ForbiddenError, ThrottledError, ValidationError } from "../errors.ts";

/** In the spec's words for a sign-in failure (§8). */
export const CURRENT_PASSWORD_FAILED = "Please check your current password.";
export const CURRENT_PASSWORD_MISSING = "currentPassword: Please enter your current password";

/**
 * Current-password checks per account, like sign-in (ASVS 2.2.1). Every check is counted in the
 * statement that compares the count with the limit, so parallel guesses cannot pass it; a right
 * password clears the count.
 */
export const CURRENT_PASSWORD_PER_ACCOUNT: WindowLimit = {
  prefix: "current-password",
  max: 5,
  windowSeconds: 900,
};

/**
 * Refuses unless `password` is the signed-in user's current password: 400 when none was typed,
 * 403 when it is wrong, 429 once the account's checks in the window reach the limit.
 */
export async function assertCurrentPassword(
  db: Db,
  user: { type: UserType; id: string },
  password: string | undefined,
): Promise<void> {
  if (!password) throw new ValidationError(CURRENT_PASSWORD_MISSING);
  const key = `${user.type}:${user.id}`;
  if (!await takeRateLimit(db, CURRENT_PASSWORD_PER_ACCOUNT, key)) {
    throw new ThrottledError(THROTTLED_MESSAGE, CURRENT_PASSWORD_PER_ACCOUNT.windowSeconds);
  }
  const account = user.type === "admin"
    ? await findAdminSignIn(db, "id", user.id)
    : await findResellerSignIn(db, "id", user.id);
  if (!account || !await verifyPassword(password, account.password_hash)) {
    throw new ForbiddenError(CURRENT_PASSWORD_FAILED);
  }
  await forgetFailures(db, CURRENT_PASSWORD_PER_ACCOUNT, key);
}
