import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";

/**
 * The keys derived from APP_SECRET: AES-256-GCM for secrets at rest (TOTP seeds, webhook secrets)
 * and HMAC-SHA256 for tokens only the server may issue (device cookies).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** The HMAC-SHA256 of `message`, base64url. */
  sign(message: string): string;
}

/** Builds a SecretBox from key material of at least 32 characters. */
export function createSecretBox(keyMaterial: string): SecretBox {
  const key = createHash("sha256").update(`topup/secret-box/v1/${keyMaterial}`)
    .digest();
  const macKey = createHash("sha256").update(`topup/mac/v1/${keyMaterial}`).digest();
  return {
    sign(message) {
      return createHmac("sha256", macKey).update(message).digest("base64url");
    },
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([
        cipher.update(plain, "utf8"),
        cipher.final(),
      ]);
      return [
        "v1",
        iv.toString("base64"),
        cipher.getAuthTag().toString("base64"),
        body.toString("base64"),
      ]
        .join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined) {
        throw new Error("Unreadable sealed secret");
      }
      const decipher = createDecipheriv(
        "aes-256-gcm",
        key,
        Buffer.from(iv, "base64"),
      );
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([
        decipher.update(Buffer.from(body, "base64")),
        decipher.final(),
      ])
        .toString("utf8");
    },
  };
}
