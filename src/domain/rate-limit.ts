import type { Db } from "../db/client.ts";
import { recordFailure } from "../db/repositories/login-attempts.ts";
import { ThrottledError } from "./errors.ts";

/** At most `maxRequests` per key in a fixed window; counters live in PostgreSQL, shared by instances. */
export interface RateLimit {
  prefix: string;
  maxRequests: number;
  windowSeconds: number;
}

/**
 * Consumer payment starts per client address: each creates an order and a HitPay request, so a
 * script could flood both. A family behind one address buying a few times stays well under it.
 */
export const CONSUMER_PAYMENT_PER_IP: RateLimit = {
  prefix: "pay-ip",
  maxRequests: 10,
  windowSeconds: 600,
};

/** Consumer account checks per client address: each costs two supplier calls. */
export const CONSUMER_VERIFY_PER_IP: RateLimit = {
  prefix: "verify-ip",
  maxRequests: 30,
  windowSeconds: 600,
};

/**
 * Order lookups by number and billing email per client address: enough for a buyer who mistypes,
 * too few to try many email addresses against one order number.
 */
export const CONSUMER_ORDER_LOOKUP_PER_IP: RateLimit = {
  prefix: "order-lookup-ip",
  maxRequests: 20,
  windowSeconds: 600,
};

/** How often a status poll may ask HitPay about one order's payment (per order, all instances). */
export const PAYMENT_CHECK_PER_ORDER: RateLimit = {
  prefix: "pay-check",
  maxRequests: 1,
  windowSeconds: 10,
};

/**
 * Reseller API requests per key (issue 11): a busy shop's bot orders and polls well under it; a
 * runaway loop is stopped before it floods the database or the suppliers.
 */
export const API_KEY_REQUESTS: RateLimit = {
  prefix: "api-key",
  maxRequests: 300,
  windowSeconds: 60,
};

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a few minutes and try again.";

/**
 * Counts this request against `key`; true while the window's limit is not passed. The count and
 * the check are one statement, so parallel requests cannot slip past the limit.
 */
export async function takeRateLimit(db: Db, limit: RateLimit, key: string): Promise<boolean> {
  const count = await recordFailure(db, `${limit.prefix}:${key}`, limit.windowSeconds);
  return count <= limit.maxRequests;
}

/** Counts this request against `key` and refuses with 429 once the window's limit is passed. */
export async function assertWithinRateLimit(db: Db, limit: RateLimit, key: string): Promise<void> {
  if (!await takeRateLimit(db, limit, key)) {
    throw new ThrottledError(RATE_LIMITED_MESSAGE, limit.windowSeconds);
  }
}
