// HitPay webhook verification (external-apis.md §3.3 and §3.4). Nothing in a webhook body is
// read before its signature checks out over the exact bytes received: a parser that tolerates
// something the signer did not sign is how forged payments get through.

import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { dollarsToCents } from "../../domain/money.ts";

/** A payment event HitPay sent, after its signature verified. */
export interface HitPayPaymentEvent {
  kind: "payment";
  version: "v1" | "v2";
  paymentId: string;
  paymentRequestId: string;
  /** Our order id, as given when the payment request was created. */
  referenceNumber: string;
  /** The payment request's status word: "completed" (paid), "failed", "pending", … (statuses.ts). */
  status: string;
  amountCents: number;
  /** Upper case, e.g. "SGD". */
  currency: string;
}

/**
 * A signed v2 event about something other than a payment request (a charge, a payout, …): HitPay
 * sends every event the dashboard endpoint subscribes to, and retries any it sees refused.
 */
export interface HitPayUnhandledEvent {
  kind: "unhandled";
  version: "v2";
  /** The Hitpay-Event-Object header, e.g. "charge". */
  object: string;
  /** The Hitpay-Event-Type header, e.g. "created" ("" when absent). */
  eventType: string;
}

/** A webhook whose signature verified. */
export type HitPayWebhookEvent = HitPayPaymentEvent | HitPayUnhandledEvent;

/** The v2 header carrying hex(HMAC-SHA256(salt, raw body)). */
export const HITPAY_SIGNATURE_HEADER = "Hitpay-Signature";

const V1_FIELDS = [
  "payment_id",
  "payment_request_id",
  "reference_number",
  "status",
  "amount",
  "currency",
] as const;

function hmacHex(salt: string, message: string): string {
  return createHmac("sha256", salt).update(message, "utf8").digest("hex");
}

/** Compares two hex signatures in time independent of where they differ. */
function sameSignature(expected: string, received: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(received, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The v1 `hmac` of a webhook's fields: every field except `hmac` (empty ones included), sorted
 * by key, concatenated as key + value, HMAC-SHA256 keyed with the salt, lower-case hex.
 */
export function signHitPayV1(fields: Record<string, string>, salt: string): string {
  const message = Object.keys(fields)
    .filter((key) => key !== "hmac")
    .sort()
    .map((key) => `${key}${fields[key]}`)
    .join("");
  return hmacHex(salt, message);
}

/** The v2 `Hitpay-Signature` of a raw JSON body. */
export function signHitPayV2(rawBody: string, salt: string): string {
  return hmacHex(salt, rawBody);
}

/** Cents from "599.00", "1,234.50" or 5.99; null when it is not an amount. */
function readAmount(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  try {
    return dollarsToCents(String(value).trim().replaceAll(",", ""));
  } catch {
    return null;
  }
}

function verifyV1(rawBody: string, salt: string): HitPayPaymentEvent | null {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawBody)) {
    // A repeated key would let the signed value and the read value differ: refuse it.
    if (Object.hasOwn(fields, key)) return null;
    fields[key] = value;
  }
  const received = fields.hmac;
  if (received === undefined || !sameSignature(signHitPayV1(fields, salt), received)) return null;
  if (V1_FIELDS.some((key) => fields[key] === undefined)) return null;
  const amountCents = readAmount(fields.amount);
  if (amountCents === null || !fields.payment_id || !fields.payment_request_id) return null;
  return {
    kind: "payment",
    version: "v1",
    paymentId: fields.payment_id,
    paymentRequestId: fields.payment_request_id,
    referenceNumber: fields.reference_number,
    status: fields.status.toLowerCase(),
    amountCents,
    currency: fields.currency.toUpperCase(),
  };
}

const V2Schema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  amount: z.union([z.string(), z.number()]),
  currency: z.string().min(1),
  reference_number: z.string().nullish(),
  payments: z.array(z.object({ id: z.string().min(1) })).nullish(),
});

function verifyV2(rawBody: string, headers: Headers, salt: string): HitPayWebhookEvent | null {
  const received = headers.get(HITPAY_SIGNATURE_HEADER) ?? "";
  if (!sameSignature(signHitPayV2(rawBody, salt), received)) return null;
  // Only payment-request events describe a payment of one of our orders; the rest are HitPay's
  // genuine events all the same, to be acknowledged rather than refused.
  const object = headers.get("Hitpay-Event-Object");
  if (object !== null && object !== "payment_request") {
    return {
      kind: "unhandled",
      version: "v2",
      object,
      eventType: headers.get("Hitpay-Event-Type") ?? "",
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const parsed = V2Schema.safeParse(json);
  const amountCents = parsed.success ? readAmount(parsed.data.amount) : null;
  if (!parsed.success || amountCents === null) return null;
  const body = parsed.data;
  return {
    kind: "payment",
    version: "v2",
    // Without a payment in the event, the request id names it: still one key per request+status.
    paymentId: body.payments?.at(-1)?.id ?? body.id,
    paymentRequestId: body.id,
    referenceNumber: body.reference_number ?? "",
    status: body.status.toLowerCase(),
    amountCents,
    currency: body.currency.toUpperCase(),
  };
}

/**
 * null when the signature does not verify or a payment body is not HitPay's. Verifies over the
 * raw body BEFORE parsing: v1 form-encoded with the `hmac` field (sorted key+value, HMAC-SHA256
 * with the salt, constant-time compare), or v2 JSON with the `Hitpay-Signature` header. A signed
 * v2 event about another object comes back as `unhandled`.
 */
export function verifyHitPayWebhook(
  rawBody: string,
  headers: Headers,
  salt: string,
): HitPayWebhookEvent | null {
  if (salt === "") return null;
  return headers.has(HITPAY_SIGNATURE_HEADER)
    ? verifyV2(rawBody, headers, salt)
    : verifyV1(rawBody, salt);
}
