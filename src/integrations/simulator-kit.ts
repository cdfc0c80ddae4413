// The simulator kit: a local server, the fault and timing knobs, fault injection with its gate,
// and canned bad answers, shared by every outside service's simulator.

/** A running local simulator server. */
export interface SimulatorServer {
  /** Origin of the server, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Releases held requests, then stops the server. */
  close(): Promise<void>;
}

/** Serves a simulator handler on a free local port (port 0 lets the OS pick). */
export function startSimulatorServer(
  handler: (request: Request) => Promise<Response>,
  options: { port?: number; hostname?: string } = {},
): SimulatorServer {
  const hostname = options.hostname ?? "127.0.0.1";
  const inFlight = new Set<AbortController>();
  const server = Deno.serve(
    { port: options.port ?? 0, hostname, onListen() {} },
    async (request) => {
      // The handler sees a copy carrying our own signal, so close() can release a response the
      // simulator is deliberately holding. Deno's request.signal is never read: touching it opts
      // into its deprecated abort-after-every-response behaviour (and a warning). A held response
      // therefore ends at close() or after holdMs, like a stalled server ignoring a caller who left.
      const controller = new AbortController();
      inFlight.add(controller);
      try {
        return await handler(
          new Request(request.url, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            signal: controller.signal,
          }),
        );
      } finally {
        inFlight.delete(controller);
      }
    },
  );
  return {
    url: `http://${hostname}:${server.addr.port}`,
    async close() {
      for (const controller of inFlight) controller.abort();
      await server.shutdown();
    },
  };
}

/** Fault and timing settings of a simulator; tests may change them at any time. */
export interface SimulatorKnobs {
  /** Delay before every answer. */
  latencyMs: number;
  /** Share of calls (0..1) answered with a supplier error body. */
  errorRate: number;
  /** Share of calls (0..1) that get no answer until the caller gives up. */
  timeoutRate: number;
  /** Share of calls (0..1) answered with garbage that is not the supplier's JSON. */
  malformedRate: number;
  /** How long a "timeout" fault holds the response when the caller does not give up first. */
  holdMs: number;
  /** Time after which a placed order completes on its own. */
  completeAfterMs: number;
}

/** Knob values used when neither the options nor the environment set one. */
export const DEFAULT_KNOBS: SimulatorKnobs = {
  latencyMs: 0,
  errorRate: 0,
  timeoutRate: 0,
  malformedRate: 0,
  holdMs: 60_000,
  completeAfterMs: 3_000,
};

const KNOB_VARIABLES: Record<keyof SimulatorKnobs, string> = {
  latencyMs: "LATENCY_MS",
  errorRate: "ERROR_RATE",
  timeoutRate: "TIMEOUT_RATE",
  malformedRate: "MALFORMED_RATE",
  holdMs: "HOLD_MS",
  completeAfterMs: "COMPLETE_AFTER_MS",
};

const RATE_KNOBS = new Set<keyof SimulatorKnobs>(["errorRate", "timeoutRate", "malformedRate"]);

/** Reads the knobs set in the environment, e.g. SIM_MOOGOLD_ERROR_RATE for prefix SIM_MOOGOLD. */
export function knobsFromEnv(
  prefix: string,
  env: Record<string, string | undefined>,
): Partial<SimulatorKnobs> {
  const knobs: Partial<SimulatorKnobs> = {};
  const variables = Object.entries(KNOB_VARIABLES) as [keyof SimulatorKnobs, string][];
  for (const [knob, suffix] of variables) {
    const name = `${prefix}_${suffix}`;
    const text = env[name]?.trim();
    if (text === undefined || text === "") continue;
    const value = Number(text);
    const max = RATE_KNOBS.has(knob) ? 1 : Number.MAX_SAFE_INTEGER;
    // A typo in a knob should stop start-up, not silently run a simulator without the fault.
    if (!Number.isFinite(value) || value < 0 || value > max) {
      throw new RangeError(`${name} must be a number between 0 and ${max}, got "${text}"`);
    }
    knobs[knob] = value;
  }
  return knobs;
}

/**
 * What a simulator does instead of answering normally. "lost": the request is carried out (an
 * order is created, a balance debited), then its answer is held like a timeout's, so the caller
 * cannot tell whether anything happened: the case that must never lead to a second top-up.
 * "throttled": a rate limiter's HTTP 429 with Retry-After (THROTTLED_RETRY_AFTER_SECONDS), and
 * nothing carried out. Those two are only forced (forceNext, failEndpoint), never drawn from the
 * rate knobs.
 */
export type SimulatedFault = "error" | "timeout" | "malformed" | "lost" | "throttled";

/** The Retry-After a "throttled" fault sends. */
export const THROTTLED_RETRY_AFTER_SECONDS = 2;

/** Deterministic and random fault selection shared by the simulators. */
export interface FaultInjector {
  /** The next `count` calls (to `endpoint` only, when given) get `fault`. */
  forceNext(fault: SimulatedFault, count?: number, endpoint?: string): void;
  /** Every call to `endpoint` gets `fault` until cleared with null. */
  failEndpoint(endpoint: string, fault: SimulatedFault | null): void;
  /** Drops forced and per-endpoint faults; the rate knobs stay. */
  clearFaults(): void;
  /** Picks the fault for one call, if any. */
  drawFault(endpoint: string): SimulatedFault | null;
}

/** Creates a fault injector reading the live knobs, with random draws from a fixed seed. */
export function createFaultInjector(knobs: SimulatorKnobs, seed: number): FaultInjector {
  const random = createSeededRandom(seed);
  let forced: { fault: SimulatedFault; remaining: number; endpoint?: string }[] = [];
  const byEndpoint = new Map<string, SimulatedFault>();
  return {
    forceNext(fault, count = 1, endpoint) {
      forced.push({ fault, remaining: count, endpoint });
    },
    failEndpoint(endpoint, fault) {
      if (fault === null) byEndpoint.delete(endpoint);
      else byEndpoint.set(endpoint, fault);
    },
    clearFaults() {
      forced = [];
      byEndpoint.clear();
    },
    drawFault(endpoint) {
      const entry = forced.find((f) => f.endpoint === undefined || f.endpoint === endpoint);
      if (entry !== undefined) {
        entry.remaining -= 1;
        forced = forced.filter((f) => f.remaining > 0);
        return entry.fault;
      }
      const pinned = byEndpoint.get(endpoint);
      if (pinned !== undefined) return pinned;
      const roll = random();
      if (roll < knobs.timeoutRate) return "timeout";
      if (roll < knobs.timeoutRate + knobs.errorRate) return "error";
      const malformedBelow = knobs.timeoutRate + knobs.errorRate + knobs.malformedRate;
      return roll < malformedBelow ? "malformed" : null;
    },
  };
}

/** mulberry32: a tiny seeded generator, so a fault rate replays the same way every run. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Waits `ms`, or less if `signal` aborts first; never rejects. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener("abort", finish);
  });
}

/** What a "timeout" fault finally sends if the caller is still waiting: a proxy's gateway timeout. */
export function gatewayTimeoutResponse(): Response {
  return new Response("<html><body><h1>504 Gateway Time-out</h1></body></html>", {
    status: 504,
    headers: { "content-type": "text/html" },
  });
}

/**
 * A rate limiter's refusal: HTTP 429 with Retry-After in seconds. EliteDias's own 429 body is not
 * documented (starktoony/elitedias_price_log reads only the status), so this one is illustrative.
 */
export function throttledResponse(): Response {
  return Response.json({ message: "Too Many Requests" }, {
    status: 429,
    headers: { "retry-after": String(THROTTLED_RETRY_AFTER_SECONDS) },
  });
}

/** A body a JSON client cannot use: an HTML error page with status 200, as CDNs sometimes send. */
export function garbageResponse(): Response {
  return new Response(
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
    { status: 200, headers: { "content-type": "text/html" } },
  );
}

/** Returns the path after `basePath`, without leading slashes, or null when outside it. */
export function routeAfterBase(request: Request, basePath: string): string | null {
  const pathname = new URL(request.url).pathname;
  const base = basePath.replace(/\/+$/, "");
  if (base !== "" && pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  return pathname.slice(base.length).replace(/^\/+/, "");
}

/** The value as a plain JSON object, or an empty one: simulators read bodies leniently. */
export function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** A supplier-style timestamp, "2025-01-05 15:04:05" in UTC. */
export function formatSupplierDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** The knobs and fault levers every simulator exposes, whatever it simulates. */
export interface SimulatorFaultLevers extends Omit<FaultInjector, "drawFault"> {
  /** Live knobs: changing a field changes the next call. */
  knobs: SimulatorKnobs;
}

/** A simulator's knobs, its fault levers and the gate every request passes before it is answered. */
export interface FaultGate {
  levers: SimulatorFaultLevers;
  /**
   * The simulator's handler with lost answers: a request the gate let through with a "lost"
   * fault is carried out, then its answer is dropped and held as a timeout's is.
   */
  wrap(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response>;
  /**
   * Waits the latency knob, then draws a fault for `endpoint`: a held answer ending in a gateway
   * timeout, garbage, a 429, or the service's own error (`errorResponse`). Null means answer
   * normally.
   */
  pass(
    request: Request,
    endpoint: string,
    errorResponse: () => Response,
  ): Promise<Response | null>;
}

/** Creates the fault gate of one simulator from its knob options and seed. */
export function createFaultGate(
  options: { knobs?: Partial<SimulatorKnobs>; seed?: number },
): FaultGate {
  const knobs: SimulatorKnobs = { ...DEFAULT_KNOBS, ...options.knobs };
  const faults = createFaultInjector(knobs, options.seed ?? 1);
  const lost = new WeakSet<Request>();
  /** A held answer that ends, if the caller is still there, in a proxy's gateway timeout. */
  async function hold(request: Request): Promise<Response> {
    await waitFor(knobs.holdMs, request.signal);
    return gatewayTimeoutResponse();
  }
  return {
    levers: {
      knobs,
      forceNext: faults.forceNext,
      failEndpoint: faults.failEndpoint,
      clearFaults: faults.clearFaults,
    },
    wrap(handler) {
      return async (request) => {
        const response = await handler(request);
        if (!lost.has(request)) return response;
        await response.body?.cancel();
        return await hold(request);
      };
    },
    async pass(request, endpoint, errorResponse) {
      await waitFor(knobs.latencyMs, request.signal);
      const fault = faults.drawFault(endpoint);
      if (fault === "lost") {
        lost.add(request);
        return null;
      }
      if (fault === "timeout") return await hold(request);
      if (fault === "malformed") return garbageResponse();
      if (fault === "throttled") return throttledResponse();
      if (fault === "error") return errorResponse();
      return null;
    },
  };
}

/** What a supplier simulator received under one of our references (the invariant check reads it). */
export interface ReferenceCount {
  reference: string;
  /** Create requests that reached the shop past the fault gate with this reference. */
  requests: number;
  /** Supplier orders that exist under this reference. */
  orders: number;
}

/** Counts the create requests a supplier shop receives, by the caller's reference. */
export function createReferenceCounter() {
  const requests = new Map<string, number>();
  return {
    /** Notes one create request carrying `reference` (null: the caller sent none). */
    received(reference: string | null): void {
      const key = reference ?? "";
      requests.set(key, (requests.get(key) ?? 0) + 1);
    },
    /** Every reference seen, with its orders counted in `orderReferences` (one entry per order). */
    counts(orderReferences: (string | null)[]): ReferenceCount[] {
      const orders = new Map<string, number>();
      for (const reference of orderReferences) {
        orders.set(reference ?? "", (orders.get(reference ?? "") ?? 0) + 1);
      }
      const keys = new Set([...requests.keys(), ...orders.keys()]);
      return [...keys].map((reference) => ({
        reference,
        requests: requests.get(reference) ?? 0,
        orders: orders.get(reference) ?? 0,
      }));
    },
  };
}
