// A local MooGold that speaks the wire format of external-apis.md §1. This file is the gate every
// request passes (routing, Accept, faults, Basic auth, timestamp, body `path`, HMAC signature);
// what MooGold sells and remembers lives in simulator-shop.ts.

import { Buffer } from "node:buffer";
import { timingSafeEqual } from "node:crypto";
import { MOOGOLD_SIMULATOR_CREDENTIALS } from "./supplier.ts";
import {
  asObject,
  createFaultGate,
  routeAfterBase,
  type SimulatorFaultLevers,
  type SimulatorKnobs,
} from "../simulator-kit.ts";
import {
  createMoogoldShop,
  type MoogoldBody,
  moogoldError,
  type MoogoldShop,
} from "./simulator-shop.ts";
import { MOOGOLD_INVALID_SIGNATURE, moogoldBasicAuth, signMoogoldRequest } from "./wire.ts";

export {
  MOOGOLD_OUT_OF_STOCK,
  type MoogoldOrderStatusText,
  type MoogoldRejection,
  type MoogoldSimOrder,
} from "./simulator-shop.ts";

/** How to build a MooGold simulator; every field has a default. */
export interface MoogoldSimulatorOptions {
  /** Path prefix the handler is mounted under, e.g. "/__sim/moogold". */
  basePath?: string;
  partnerId?: string;
  secretKey?: string;
  /**
   * Whether MooGold signs partnerOrderId with the rest of the body (default true, as its api-doc
   * shows) or only {path, data}; the requireSigning lever changes it.
   */
  signPartnerOrderId?: boolean;
  knobs?: Partial<SimulatorKnobs>;
  /** Seed of the random fault draws. */
  seed?: number;
  /** Starting wallet, USD. */
  balance?: string;
  /** Clock, ms since epoch. */
  now?: () => number;
}

/** An in-memory MooGold: its handler, live knobs, fault levers and shop levers. */
export interface MoogoldSimulator extends SimulatorFaultLevers, Omit<MoogoldShop, "routes"> {
  handler: (request: Request) => Promise<Response>;
  /**
   * Which create_order signing the simulator accepts from now on: with partnerOrderId inside the
   * signed body (true), or {path, data} only (false). The other is refused with 109.
   */
  requireSigning(withPartnerOrderId: boolean): void;
}

/** Credentials the simulator accepts unless told otherwise. */
export { MOOGOLD_SIMULATOR_CREDENTIALS };

// MooGold's replay window is unconfirmed; five minutes catches milliseconds-for-seconds bugs.
const MAX_CLOCK_SKEW_SECONDS = 300;

/** Creates an in-memory MooGold with the seeded catalogue. */
export function createMoogoldSimulator(options: MoogoldSimulatorOptions = {}): MoogoldSimulator {
  const basePath = options.basePath ?? "";
  const partnerId = options.partnerId ?? MOOGOLD_SIMULATOR_CREDENTIALS.partnerId;
  const secretKey = options.secretKey ?? MOOGOLD_SIMULATOR_CREDENTIALS.secretKey;
  let signPartnerOrderId = options.signPartnerOrderId ?? true;
  const now = options.now ?? Date.now;
  const gate = createFaultGate(options);
  const { knobs } = gate.levers;
  const expectedAuthorization = moogoldBasicAuth(partnerId, secretKey);
  const balance = options.balance ?? "1000.00";
  const { routes, ...levers } = createMoogoldShop({ knobs, now, balance });

  function checkCredentials(
    request: Request,
    raw: string,
    body: MoogoldBody,
    path: string,
  ): Response | null {
    if (request.headers.get("authorization") !== expectedAuthorization) {
      return moogoldError("422", "API not authorised", 401);
    }
    const timestamp = request.headers.get("timestamp") ?? "";
    const skew = Math.abs(now() / 1000 - Number(timestamp));
    if (!/^\d+$/.test(timestamp) || skew > MAX_CLOCK_SKEW_SECONDS) {
      return moogoldError("422", "Invalid timestamp", 401);
    }
    if (body.path !== path) return moogoldError("418", "Path mismatch");
    let signed = raw;
    // In the unsigned mode the client signed {path, data} and appended partnerOrderId afterwards;
    // JSON.stringify keeps key order, so dropping the key rebuilds the exact signed string.
    if (!signPartnerOrderId && "partnerOrderId" in body) {
      const { partnerOrderId: _unsigned, ...rest } = body;
      signed = JSON.stringify(rest);
    }
    const expected = Buffer.from(signMoogoldRequest(secretKey, signed, timestamp, path));
    const given = Buffer.from(request.headers.get("auth") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return moogoldError(MOOGOLD_INVALID_SIGNATURE.code, MOOGOLD_INVALID_SIGNATURE.message, 401);
    }
    return null;
  }

  async function handler(request: Request): Promise<Response> {
    const path = routeAfterBase(request, basePath);
    const route = path === null ? undefined : routes[path];
    if (path === null || route === undefined || request.method !== "POST") {
      return Response.json({
        code: "rest_no_route",
        message: "No route was found matching the URL and request method.",
        data: { status: 404 },
      }, { status: 404 });
    }
    if (!(request.headers.get("accept") ?? "").includes("application/json")) {
      return new Response("<html><body>404 Not Found</body></html>", {
        status: 404,
        headers: { "content-type": "text/html" },
      });
    }
    const fault = await gate.pass(
      request,
      path,
      () => moogoldError("500", "Simulated supplier error"),
    );
    if (fault) return fault;
    const raw = await request.text();
    let body: MoogoldBody;
    try {
      body = asObject(JSON.parse(raw));
    } catch {
      return moogoldError("422", "Invalid JSON body");
    }
    return checkCredentials(request, raw, body, path) ?? route(body);
  }

  return {
    handler: gate.wrap(handler),
    ...gate.levers,
    ...levers,
    requireSigning(withPartnerOrderId) {
      signPartnerOrderId = withPartnerOrderId;
    },
  };
}
