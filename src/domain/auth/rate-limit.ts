import type { Db } from "../../db/client.ts";
import {
  clearFailures,
  countInWindow,
  recordHit,
  recordHitInWindow,
  recordSpacedHit,
  releaseHit,
  secondsLeftInWindow,
  secondsUntilSpacedHit,
  type Spacing,
} from "../../db/repositories/login-attempts.ts";
import { isIPv6 } from "node:net";
import { type RateQuota, ThrottledError } from "../errors.ts";

/**
 * At most `max` hits per key in a fixed window: requests for a rate limit, attempts for a sign-in
 * throttle (counted before the check, taken back or cleared when it succeeds). The counters live
 * in PostgreSQL, shared by every instance; a key whose window is full is never written, so a
 * client hammering a limit costs no writes.
 */
export interface WindowLimit {
  prefix: string;
  max: number;
  windowSeconds: number;
  /** Keyed by a client address: counted per network (addressKey), not per address. */
  byAddress?: boolean;
}

/**
 * The network a client address counts for: an IPv6 address's /64 (one customer's line or host,
 * which hands its holder 2^64 addresses to rotate through), an IPv4 address as it is (an IPv4 in
 * IPv6 form too).
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

// OWASP ASVS 2.2.1: limit guessing per account and per source address, in a way a stranger
// cannot turn against the owner. A browser the account signed in on before (its device
// cookie) counts only its own failures, with growing delays (LOGIN_PER_DEVICE). Any other browser
// counts against the account from its address (a guesser there is stopped, the owner elsewhere is
// not), against its address across accounts (a spray), and against the account from every
// unknown browser, set high enough that one address alone can never reach it.
export const LOGIN_PER_SOURCE: WindowLimit = { prefix: "login-src", max: 5, windowSeconds: 900 };
export const LOGIN_PER_IP: WindowLimit = {
  prefix: "login-ip",
  max: 30,
  windowSeconds: 900,
  byAddress: true,
};
export const LOGIN_PER_ACCOUNT: WindowLimit = { prefix: "login", max: 20, windowSeconds: 900 };
export const TOTP_PER_ACCOUNT: WindowLimit = { prefix: "totp", max: 5, windowSeconds: 900 };

/**
 * Failed sign-ins from a known device of one account: 5 at once, then each further try waits
 * twice as long after the last as the one before (1 s, 2 s, 4 s … 15 min at most), never a lock:
 * the owner mistyping is back in seconds, a stolen cookie guesses ever more slowly. Forgotten a
 * day after the first, or on success.
 */
export const LOGIN_PER_DEVICE: SpacedLimit = {
  prefix: "login-device",
  free: 5,
  firstDelaySeconds: 1,
  maxDelaySeconds: 900,
  windowSeconds: 86_400,
};

/** Attempts counted in a window with a doubling delay between them past the first few. */
export interface SpacedLimit extends Spacing {
  prefix: string;
}

/**
 * Consumer payment starts per client address: each creates an order and a HitPay request, so a
 * script could flood both. A family behind one address buying a few times stays well under it.
 */
export const CONSUMER_PAYMENT_PER_IP: WindowLimit = {
  prefix: "pay-ip",
  max: 10,
  windowSeconds: 600,
  byAddress: true,
};

/**
 * "Try again" per client address, apart from new payments: a buyer whose payment did not go
 * through retries without using the address's starts, which buyers behind one carrier address
 * share. Each retry still makes an order and a HitPay request, so it has a budget of its own.
 */
export const CONSUMER_RETRY_PER_IP: WindowLimit = {
  prefix: "pay-retry-ip",
  max: 10,
  windowSeconds: 600,
  byAddress: true,
};

/** Consumer account checks per client address: each costs two supplier calls. */
export const CONSUMER_VERIFY_PER_IP: WindowLimit = {
  prefix: "verify-ip",
  max: 30,
  windowSeconds: 600,
  byAddress: true,
};

/**
 * Anonymous account checks (a consumer's Verify, and the check again when they pay) per supplier,
 * across every client: each is a call to the supplier's own API, and a crowd of addresses must not
 * spend the shop's standing with a supplier that rate-limits or bans its reseller key. About five
 * a second per supplier, far above a busy shop's buyers.
 */
export const CONSUMER_CHECKS_PER_SUPPLIER: WindowLimit = {
  prefix: "check-supplier",
  max: 300,
  windowSeconds: 60,
};

/**
 * Order lookups by number and billing email per client address: enough for a buyer who mistypes,
 * too few to try many email addresses against one order number.
 */
export const CONSUMER_ORDER_LOOKUP_PER_IP: WindowLimit = {
  prefix: "order-lookup-ip",
  max: 20,
  windowSeconds: 600,
  byAddress: true,
};

/** How often a status poll may ask HitPay about one order's payment (per order, all instances). */
export const PAYMENT_CHECK_PER_ORDER: WindowLimit = {
  prefix: "pay-check",
  max: 1,
  windowSeconds: 10,
};

/**
 * Reseller API requests per key: a busy shop's bot orders and polls well under it; a
 * runaway loop is stopped before it floods the database or the suppliers.
 */
export const API_KEY_REQUESTS: WindowLimit = {
  prefix: "api-key",
  max: 300,
  windowSeconds: 60,
};

export const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a few minutes and try again.";
export const THROTTLED_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

const keyOf = (limit: { prefix: string; byAddress?: boolean }, key: string) =>
  `${limit.prefix}:${limit.byAddress ? addressKey(key) : key}`;

/** True when `key`'s window already holds the limit's hits (a read, no write). */
async function isFull(db: Db, limit: WindowLimit, key: string): Promise<boolean> {
  return await countInWindow(db, keyOf(limit, key), limit.windowSeconds) >= limit.max;
}

/**
 * Counts this request against `key`; true while the window's limit is not passed. A full window
 * is answered from a read; otherwise the count and the check are one statement, so parallel
 * requests cannot slip past the limit.
 */
export async function takeRateLimit(db: Db, limit: WindowLimit, key: string): Promise<boolean> {
  if (await isFull(db, limit, key)) return false;
  return await recordHit(db, keyOf(limit, key), limit.windowSeconds, limit.max) !== undefined;
}

/**
 * `takeRateLimit` that says how long to wait: undefined when this request was counted, else the
 * whole seconds until `key`'s window ends and a request may be counted again.
 */
export async function takeRateLimitOrWait(
  db: Db,
  limit: WindowLimit,
  key: string,
): Promise<number | undefined> {
  if (await takeRateLimit(db, limit, key)) return undefined;
  return await secondsLeftInWindow(db, keyOf(limit, key), limit.windowSeconds);
}

/** Counts this request against `key` and refuses with 429 once the window's limit is passed. */
export async function assertWithinRateLimit(
  db: Db,
  limit: WindowLimit,
  key: string,
): Promise<void> {
  if (!await takeRateLimit(db, limit, key)) {
    throw new ThrottledError(RATE_LIMITED_MESSAGE, limit.windowSeconds);
  }
}

/**
 * Counts this request against `key` and says where the key stands; a request past the limit is
 * refused with 429, its quota (none remaining) on the error.
 */
export async function takeRateLimitQuota(
  db: Db,
  limit: WindowLimit,
  key: string,
): Promise<RateQuota> {
  const quota = { limit: limit.max, windowSeconds: limit.windowSeconds };
  const hit = await isFull(db, limit, key)
    ? undefined
    : await recordHitInWindow(db, keyOf(limit, key), limit.windowSeconds, limit.max);
  if (hit) {
    return {
      ...quota,
      remaining: Math.max(0, limit.max - hit.count),
      resetSeconds: hit.secondsLeft,
    };
  }
  const wait = await secondsLeftInWindow(db, keyOf(limit, key), limit.windowSeconds);
  throw new ThrottledError(RATE_LIMITED_MESSAGE, wait, {
    ...quota,
    remaining: 0,
    resetSeconds: wait,
  });
}

/** One attempt to count against `key` under `limit`. */
export interface Attempt {
  limit: WindowLimit | SpacedLimit;
  key: string;
}

/** Counts `attempt` if its limit allows it now; otherwise the seconds to wait. */
async function take(db: Db, { limit, key }: Attempt): Promise<{ waitSeconds?: number }> {
  if ("free" in limit) {
    if (await recordSpacedHit(db, keyOf(limit, key), limit) !== undefined) return {};
    return { waitSeconds: await secondsUntilSpacedHit(db, keyOf(limit, key), limit) };
  }
  if (await recordHit(db, keyOf(limit, key), limit.windowSeconds, limit.max) !== undefined) {
    return {};
  }
  return { waitSeconds: limit.windowSeconds };
}

/**
 * Counts a sign-in attempt against each limit, in order, before any secret is checked: on each
 * key the count and the decision are one statement, so parallel attempts never get more than a
 * limit checked. An attempt one limit refuses is taken back from those counted before it, and
 * refused with 429. Each stays counted as a failure until the caller releases or clears it.
 */
export async function takeAttempts(db: Db, attempts: Attempt[]): Promise<void> {
  const taken: Attempt[] = [];
  for (const attempt of attempts) {
    const { waitSeconds } = await take(db, attempt);
    if (waitSeconds !== undefined) {
      for (const t of taken) await releaseHit(db, keyOf(t.limit, t.key));
      throw new ThrottledError(THROTTLED_MESSAGE, waitSeconds);
    }
    taken.push(attempt);
  }
}

/** Takes back one attempt of `key` that succeeded, leaving the failures of others counted. */
export async function releaseAttempt(db: Db, limit: WindowLimit, key: string): Promise<void> {
  await releaseHit(db, keyOf(limit, key));
}

/** Forgets the failures of `key` after a success. */
export async function forgetFailures(
  db: Db,
  limit: WindowLimit | SpacedLimit,
  key: string,
): Promise<void> {
  await clearFailures(db, keyOf(limit, key));
}
