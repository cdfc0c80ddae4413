import type { Db } from "../db/client.ts";
import {
  clearFailures,
  countRecentFailures,
  recordFailure,
} from "../db/repositories/login-attempts.ts";
import { ThrottledError } from "./errors.ts";

/** A limit of failures per key in a sliding window; counters live in Postgres, shared by instances. */
export interface ThrottleRule {
  prefix: string;
  maxFailures: number;
  windowSeconds: number;
}

// OWASP ASVS 2.2.1: limit guessing per account and per source address.
export const LOGIN_PER_ACCOUNT: ThrottleRule = {
  prefix: "login",
  maxFailures: 5,
  windowSeconds: 900,
};
export const LOGIN_PER_IP: ThrottleRule = {
  prefix: "login-ip",
  maxFailures: 30,
  windowSeconds: 900,
};
export const TOTP_PER_ACCOUNT: ThrottleRule = {
  prefix: "totp",
  maxFailures: 5,
  windowSeconds: 900,
};

export const THROTTLED_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

/** Refuses with 429 when `key` has reached the rule's limit; checked before any secret is tested. */
export async function assertNotThrottled(
  db: Db,
  rule: ThrottleRule,
  key: string,
): Promise<void> {
  const failures = await countRecentFailures(
    db,
    `${rule.prefix}:${key}`,
    rule.windowSeconds,
  );
  if (failures >= rule.maxFailures) {
    throw new ThrottledError(THROTTLED_MESSAGE, rule.windowSeconds);
  }
}

/** Counts one failure against `key`. */
export async function noteFailure(
  db: Db,
  rule: ThrottleRule,
  key: string,
): Promise<void> {
  await recordFailure(db, `${rule.prefix}:${key}`, rule.windowSeconds);
}

/** Forgets the failures of `key` after a success. */
export async function forgetFailures(
  db: Db,
  rule: ThrottleRule,
  key: string,
): Promise<void> {
  await clearFailures(db, `${rule.prefix}:${key}`);
}
