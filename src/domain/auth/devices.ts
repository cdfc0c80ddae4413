import { randomBytes, timingSafeEqual } from "node:crypto";
import type { UserType } from "../../db/schema.ts";
import type { SecretBox } from "./secret-box.ts";

// Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser where
// an account signed in before carries a random id signed for that account with the app secret.
// Its failures count against that id alone, so a stranger's guesses elsewhere never lock the owner
// out of their own browser. The cookie names no account: each entry is `id.signature`, and the
// signature only matches the account it was issued for.

/** How many accounts one browser's cookie remembers; the oldest is forgotten first. */
const MAX_ACCOUNTS = 5;
const ENTRY = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

export interface DeviceAccount {
  userType: UserType;
  /** Normalized email: the sign-in form names the account by it. */
  email: string;
}

const signatureOf = (box: SecretBox, account: DeviceAccount, id: string) =>
  box.sign(`device\n${account.userType}\n${account.email}\n${id}`);

function entriesOf(cookie: string | undefined): string[] {
  return (cookie ?? "").split("~").filter((e) => ENTRY.test(e)).slice(0, MAX_ACCOUNTS);
}

/** The id of this browser for `account`, when its cookie holds one signed for that account. */
export function knownDeviceId(
  box: SecretBox,
  cookie: string | undefined,
  account: DeviceAccount,
): string | null {
  for (const entry of entriesOf(cookie)) {
    const [id, signature] = entry.split(".");
    const expected = Buffer.from(signatureOf(box, account, id));
    if (timingSafeEqual(Buffer.from(signature), expected)) return id;
  }
  return null;
}

/** The cookie value after `account` signed in on this browser: it now knows the browser. */
export function rememberDevice(
  box: SecretBox,
  cookie: string | undefined,
  account: DeviceAccount,
): string {
  const entries = entriesOf(cookie);
  if (knownDeviceId(box, cookie, account)) return entries.join("~");
  const id = randomBytes(16).toString("base64url");
  return [`${id}.${signatureOf(box, account, id)}`, ...entries].slice(0, MAX_ACCOUNTS).join("~");
}
