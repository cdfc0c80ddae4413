// The HTTP of reseller webhooks: the host is resolved when the event is sent, every
// address it stands for is vetted (addresses.ts), and the connection goes to a vetted address
// with no second lookup, so a DNS answer that changes between the check and the connect (DNS
// rebinding) cannot steer it inside. The URL's name stays the Host header and the TLS server
// name, so the receiver's certificate is checked against it. Redirects are not followed. What
// comes back is the status or the class of failure, never the remote's words: a reply excerpt or
// an error message would let a reseller read what answers at an address of their choosing.
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isLoopback, parseIp, specialRangeOf } from "./addresses.ts";

/** Every address of a host name (A and AAAA); throws when the name does not resolve. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/**
 * The system's resolver (getaddrinfo, /etc/hosts included): the names the machine would reach
 * are the ones vetted.
 */
export const resolveHostWithSystem: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Which addresses a webhook may reach: public ones, and loopback in demo mode. */
export interface TargetPolicy {
  resolve: ResolveHost;
  /** The demo's receiver listens on this machine (examples/webhook-demo.sh). */
  allowLoopback: boolean;
}

/**
 * The delivery log's word for a host with an address that is not allowed, or with none: one word
 * for both, or the log would tell which of our internal names exist.
 */
export const REFUSED_NOT_PUBLIC = "refused: not a public address";

/** A host's addresses, every one allowed, or none. */
export type VettedHost = { ok: true; addresses: string[] } | { ok: false };

/** Whether a webhook may go to `address` (a public one; loopback only when allowed). */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  return specialRangeOf(address) === undefined || (allowLoopback && isLoopback(address));
}

/** The host of a URL as a connection names it (an IPv6 literal without its brackets). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves `host` (an address literal stands for itself) and vets every address. One address
 * that is not allowed refuses the whole name: an answer mixing a public and a private address
 * must not reach the private one through a client's failover.
 */
export async function vetHost(host: string, policy: TargetPolicy): Promise<VettedHost> {
  let addresses: string[];
  if (parseIp(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      return { ok: false };
    }
  }
  const allowed = addresses.length > 0 &&
    addresses.every((address) => isAllowedAddress(address, policy.allowLoopback));
  return allowed ? { ok: true, addresses } : { ok: false };
}

/** A lookup that answers the vetted addresses whatever it is asked: no second resolution. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({
    address,
    family: address.includes(":") ? 6 : 4,
  }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  };
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `HTTP ${status} (redirect not followed)`;
  return `HTTP ${status}`;
}

/** The class of a failed connection; the error's own text stays here. */
function errorClass(error: Error & { code?: string }): string {
  const code = error.code ?? "";
  if (/^ERR_(TLS|SSL)|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return "TLS error";
  if (code.startsWith("HPE_")) return "invalid HTTP answer";
  return "cannot connect";
}

/** One webhook POST. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions extends TargetPolicy {
  /** One limit for resolving, connecting and the answer's status line. */
  timeoutMs: number;
  /** Trust anchors instead of the system's (a test's own receiver). */
  ca?: string;
}

/** What came of a POST: the receiver's status, or the class of failure (`error` null on 2xx). */
export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs `request` (its URL already checked) to a vetted address of its host; every failure is an
 * outcome, never a rejection.
 */
export function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<SendOutcome> {
  const url = new URL(request.url);
  const host = bareHost(url);
  return new Promise((settle) => {
    let outgoing: http.ClientRequest | undefined;
    let finished = false;
    const finish = (outcome: SendOutcome) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // The body is never read: its words are not ours to show, and the socket goes at once.
      outgoing?.destroy();
      settle(outcome);
    };
    const timer = setTimeout(
      () => finish({ statusCode: null, error: "timeout" }),
      options.timeoutMs,
    );
    vetHost(host, options).then((vetted) => {
      if (finished) return;
      if (!vetted.ok) return finish({ statusCode: null, error: REFUSED_NOT_PUBLIC });
      outgoing = (url.protocol === "https:" ? https : http).request({
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: {
          ...request.headers,
          "Content-Length": String(new TextEncoder().encode(request.body).length),
        },
        agent: false,
        lookup: pinnedLookup(vetted.addresses),
        ca: options.ca,
      }, (response) => {
        const status = response.statusCode ?? 0;
        finish({ statusCode: status, error: statusError(status) });
      });
      outgoing.on("error", (error) => finish({ statusCode: null, error: errorClass(error) }));
      outgoing.end(request.body);
    }).catch(() => finish({ statusCode: null, error: "cannot connect" }));
  });
}
