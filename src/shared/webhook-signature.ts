// The signature on our webhooks, like Stripe's: `X-TopUp-Signature: t=<unix seconds>,v1=<hex>`,
// where v1 is HMAC-SHA256 with the endpoint's secret over `${t}.${rawBody}`. Only Web Crypto is
// used, so a receiver can copy this file as it is (Deno, Node 20+, Bun, browsers, workers).

/** The header that carries the signature. */
export const WEBHOOK_SIGNATURE_HEADER = "X-TopUp-Signature";

const encoder = new TextEncoder();

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [usage],
  );
}

/** The header value for `rawBody` sent at `timestamp` (unix seconds). */
export async function signWebhook(
  secret: string,
  rawBody: string,
  timestamp: number,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret, "sign"),
    encoder.encode(`${timestamp}.${rawBody}`),
  );
  const hex = Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
  return `t=${timestamp},v1=${hex}`;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * True when `header` signs `rawBody` (the bytes as received, before any JSON parsing) with
 * `secret`, at a time within `toleranceSec` of now (replays of old deliveries fail). Any of
 * several v1 values may match (a header may carry one per secret). The comparison is
 * Web Crypto's own verify, which does not leak timing.
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  toleranceSec = 300,
  nowSec = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.trim().split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  if (!t || !/^\d{1,12}$/.test(t) || Math.abs(nowSec - Number(t)) > toleranceSec) return false;
  const key = await hmacKey(secret, "verify");
  const data = encoder.encode(`${t}.${rawBody}`);
  for (const [k, v] of parts) {
    const mac = k === "v1" && v ? hexToBytes(v) : null;
    if (mac && await crypto.subtle.verify("HMAC", key, mac, data)) return true;
  }
  return false;
}
