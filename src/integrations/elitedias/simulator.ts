// A local EliteDias that speaks the wire format of external-apis.md §2. This file is the gate every
// request passes (routing, Origin, faults, api_key); what EliteDias sells and remembers lives in
// simulator-shop.ts. checkid sits at {basePath}/checkid, standing in for the public host.

import { ELITEDIAS_SIMULATOR_CREDENTIALS } from "./supplier.ts";
import {
  asObject,
  createFaultGate,
  routeAfterBase,
  type SimulatorFaultLevers,
  type SimulatorKnobs,
} from "../simulator-kit.ts";
import { ELITEDIAS_SERVER_LIST_PATH } from "./client.ts";
import {
  createElitediasShop,
  type ElitediasBody,
  elitediasError,
  type ElitediasShop,
} from "./simulator-shop.ts";

export {
  ELITEDIAS_OUT_OF_STOCK,
  type ElitediasRejection,
  type ElitediasSimOrder,
} from "./simulator-shop.ts";

/** How to build an EliteDias simulator; every field has a default. */
export interface ElitediasSimulatorOptions {
  /** Path prefix the handler is mounted under, e.g. "/__sim/elitedias". */
  basePath?: string;
  apiKey?: string;
  /** Must match the client's serverListPath. */
  serverListPath?: string;
  knobs?: Partial<SimulatorKnobs>;
  /** Seed of the random fault draws. */
  seed?: number;
  /** Starting reseller balance. */
  balance?: string;
  /** Clock, ms since epoch. */
  now?: () => number;
}

/** An in-memory EliteDias: its handler, live knobs, fault levers and shop levers. */
export interface ElitediasSimulator extends SimulatorFaultLevers, Omit<ElitediasShop, "routes"> {
  handler: (request: Request) => Promise<Response>;
}

/** The api_key the simulator accepts unless told otherwise. */
export const ELITEDIAS_SIMULATOR_API_KEY = ELITEDIAS_SIMULATOR_CREDENTIALS.apiKey;

/** Creates an in-memory EliteDias with the seeded catalogue. */
export function createElitediasSimulator(
  options: ElitediasSimulatorOptions = {},
): ElitediasSimulator {
  const basePath = options.basePath ?? "";
  const apiKey = options.apiKey ?? ELITEDIAS_SIMULATOR_API_KEY;
  const gate = createFaultGate(options);
  const { routes, ...levers } = createElitediasShop({
    knobs: gate.levers.knobs,
    now: options.now ?? Date.now,
    balance: options.balance ?? "1000.00",
    serverListRoute: (options.serverListPath ?? ELITEDIAS_SERVER_LIST_PATH).replace(/^\/+/, ""),
  });

  async function handler(request: Request): Promise<Response> {
    const path = routeAfterBase(request, basePath);
    const route = path === null ? undefined : routes[path];
    if (path === null || route === undefined || request.method !== "POST") {
      return Response.json({ code: "404", message: "Not found" }, { status: 404 });
    }
    // Every known client sends an Origin; without one we answer the way a CDN in front would.
    if (request.headers.get("origin") === null) {
      return Response.json({ code: "403", message: "Origin header required" }, { status: 403 });
    }
    const fault = await gate.pass(
      request,
      path,
      () => elitediasError("500", "Simulated supplier error"),
    );
    if (fault) return fault;
    let body: ElitediasBody;
    try {
      body = asObject(JSON.parse(await request.text()));
    } catch {
      return elitediasError("400", "Invalid JSON body");
    }
    // checkid is the public endpoint and takes no api_key.
    if (path !== "checkid" && body.api_key !== apiKey) {
      return elitediasError("401", "Invalid API key");
    }
    return route(body);
  }

  return { handler: gate.wrap(handler), ...gate.levers, ...levers };
}
