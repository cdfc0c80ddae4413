import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { getConfig } from "../../config.ts";

// scrypt's cost is SCRYPT_LOG_N (OWASP's 17 by default and at least that in production); r and p
// are OWASP's.
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEM = 256 * 1024 * 1024;

function derive(
  password: string,
  salt: Buffer,
  logN: number,
  r: number,
  p: number,
) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: 2 ** logN, r, p, maxmem: MAX_MEM },
      (err, key) => err ? reject(err) : resolve(key),
    )
  );
}

/** Hashes a password as `scrypt$logN$r$p$salt$hash` (base64), parameters kept for later upgrades. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const logN = getConfig().scryptLogN;
  const key = await derive(password, salt, logN, R, P);
  return [
    "scrypt",
    logN,
    R,
    P,
    salt.toString("base64"),
    key.toString("base64"),
  ].join("$");
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(
  password: string,
  stored: string,
): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN > 20) return false;
  const expected = Buffer.from(parts[5], "base64");
  const actual = await derive(
    password,
    Buffer.from(parts[4], "base64"),
    logN,
    r,
    p,
  );
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown email cannot be told from a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password");
  await verifyPassword(password, await dummyHash);
}
