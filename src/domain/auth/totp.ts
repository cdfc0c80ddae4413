import * as OTPAuth from "otpauth";
import QRCode from "qrcode";

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "TopUp";

/** A new base32 TOTP secret of 160 bits from the CSPRNG (RFC 4226 recommends 160). */
export function generateTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secret: string, label: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * Checks a code with ±1 step of drift (RFC 6238 §5.2) and returns the matching time step, or null.
 * The caller refuses a step at or below the last accepted one, so a code works only once.
 */
export function matchTotpStep(
  secret: string,
  code: string,
  now = Date.now(),
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, "check").validate({
    token: code,
    timestamp: now,
    window: 1,
  });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The current code for a secret (tests and the demo helper use it). */
export function generateTotpCode(secret: string, now = Date.now()): string {
  return totpFor(secret, "code").generate({ timestamp: now });
}

/** The otpauth:// URI and its QR code as a PNG data URL, for enrolment. */
export async function enrolmentQr(
  secret: string,
  account: string,
): Promise<string> {
  return await QRCode.toDataURL(totpFor(secret, account).toString(), {
    margin: 1,
    width: 240,
  });
}
