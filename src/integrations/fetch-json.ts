// The outside-service clients' HTTP: the typed result every client call returns, one timed JSON
// request that classifies every failure, and the readers of what comes back.

import { z } from "zod";
import { logger } from "../observability/log.ts";
import { observeSupplierCall } from "../observability/metrics.ts";

/**
 * Why a supplier call did not produce a usable answer. `throttled`: the supplier's rate limit
 * refused the request before carrying it out, so it may be sent again later (a client says so only
 * where the vendor's 429 is known to mean that).
 */
export type SupplierErrorKind =
  | "timeout"
  | "network"
  | "http"
  | "supplier"
  | "malformed"
  | "throttled";

/** A failed supplier call. `code` is the supplier's own error code, or the HTTP status for `http`. */
export interface SupplierError {
  ok: false;
  kind: SupplierErrorKind;
  message: string;
  code?: string;
  /** How long the supplier asked us to wait (its Retry-After), when it said. */
  retryAfterMs?: number;
}

/** The outcome of every supplier call: clients never throw, so callers must look at `ok`. */
export type SupplierResult<T> = { ok: true; value: T } | SupplierError;

/** Our three supplier order states, whatever words the supplier uses. */
export type SupplierOrderStatus = "successful" | "pending" | "failed";

/** A JSON body as it came back, before any supplier-specific reading. */
export interface RawJsonResponse {
  status: number;
  json: unknown;
  /** The answer's Retry-After, in ms, when it had one that parses. */
  retryAfterMs?: number;
}

/** Which outside call a request is, for its metrics and log line: `moogold`, `order/create_order`. */
export interface CallName {
  vendor: string;
  endpoint: string;
  /**
   * Whether a 2xx JSON answer is the supplier saying no (out of stock, balance short, IP not
   * allowed) in its own error shape: counted as `refused`, so refusals show apart from answers.
   */
  refused?: (json: unknown) => boolean;
}

/**
 * How a request went: `answered` (a 2xx JSON answer), `refused` (a 2xx answer in the supplier's
 * error shape, as its client reads it), `http_error` (a JSON answer with another status), or the
 * failure's kind.
 */
function outcomeOf(result: SupplierResult<RawJsonResponse>, call: CallName): string {
  if (!result.ok) return result.kind;
  if (result.value.status < 200 || result.value.status > 299) return "http_error";
  return call.refused?.(result.value.json) ? "refused" : "answered";
}

/** Builds a failed result. */
export function failWith(kind: SupplierErrorKind, message: string, code?: string): SupplierError {
  return code === undefined ? { ok: false, kind, message } : { ok: false, kind, message, code };
}

/**
 * Sends one request and parses the JSON answer, classifying every failure: timeout, network,
 * an HTTP error without JSON, or garbage. A JSON error body comes back as a value, for the
 * caller to read the supplier's own error shape.
 */
export async function fetchJson(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  timeoutMs: number,
  call: CallName,
): Promise<SupplierResult<RawJsonResponse>> {
  const started = performance.now();
  const result = await requestJson(url, init, timeoutMs);
  const seconds = (performance.now() - started) / 1000;
  const outcome = outcomeOf(result, call);
  observeSupplierCall(call, outcome, seconds);
  // The vendor, endpoint and outcome only: never the URL's query, the headers or the bodies.
  logger().info({
    msg: "supplier call",
    vendor: call.vendor,
    endpoint: call.endpoint,
    outcome,
    ...(result.ok ? { status: result.value.status } : { error: result.message }),
    ms: Math.round(seconds * 1000),
  });
  return result;
}

async function requestJson(
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<SupplierResult<RawJsonResponse>> {
  // One signal covers connect, headers and body: a supplier that stalls mid-body is a timeout too.
  // Its timer is cleared once the answer is in (AbortSignal.timeout's cannot be: under load tens
  // of thousands would wait out their time, each then making and dispatching an error nobody reads).
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let status: number;
  let text: string;
  let retryAfterMs: number | undefined;
  try {
    const response = await fetch(url, { ...init, signal });
    status = response.status;
    retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    text = await response.text();
  } catch (error) {
    const host = new URL(url).host;
    if (signal.aborted) return failWith("timeout", `no answer from ${host} within ${timeoutMs} ms`);
    return failWith("network", `cannot reach ${host}: ${describeError(error)}`);
  } finally {
    clearTimeout(timer);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const snippet = text.slice(0, 80).replace(/\s+/g, " ");
    if (status < 200 || status > 299) {
      const failure = failWith("http", `HTTP ${status}: ${snippet}`, String(status));
      return retryAfterMs === undefined ? failure : { ...failure, retryAfterMs };
    }
    return failWith("malformed", `answer is not JSON: ${snippet}`);
  }
  return {
    ok: true,
    value: retryAfterMs === undefined ? { status, json } : { status, json, retryAfterMs },
  };
}

/**
 * A Retry-After header in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date names its day first ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would
  // also take "-5" for a year.
  const at = /^[A-Za-z]{3}, /.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Runs at most `max` of the calls given to it at once, the others waiting in arrival order: a
 * client's cap on the calls it has out at one supplier (SUPPLIER_CONCURRENCY), however many jobs
 * want one. The wait is not part of a call's timeout, which is the supplier's time to answer.
 */
export function inFlightLimit(max: number): <T>(call: () => Promise<T>) => Promise<T> {
  let out = 0;
  const waiting: (() => void)[] = [];
  return async (call) => {
    if (out >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else out++;
    try {
      return await call();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else out--;
    }
  };
}

/** POSTs an already serialised JSON body and parses the answer (see fetchJson). */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  call: CallName,
): Promise<SupplierResult<RawJsonResponse>> {
  return fetchJson(url, { method: "POST", body, headers }, timeoutMs, call);
}

/**
 * A price or balance as suppliers send it (JSON number or numeric string), kept as exact decimal
 * text so no float ever touches money; src/domain/money.ts parses it.
 */
export const decimalText = z.union([z.number(), z.string()])
  .transform((value) => String(value).trim())
  .refine((text) => /^\d+(\.\d+)?$/.test(text), { error: "expected a non-negative decimal" });

/** Summarises a zod failure in one line for a `malformed` result. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
    .join("; ");
}

/**
 * Why a request got no answer. Deno's fetch rejects with only "fetch failed" and keeps the reason
 * (DNS lookup, connection refused, TLS) in `cause`, behind a prefix repeating the URL.
 */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const reason = error.cause instanceof Error ? error.cause.message : error.message;
  return reason.replace(/^error sending request for url \([^)]*\): (client error \(\w+\): )?/, "");
}
