import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Buffer } from "node:buffer";
import type { Config } from "../src/config.ts";
import { knobsFromEnv, type SimulatorKnobs } from "../src/integrations/simulator-kit.ts";
import { REGISTERED } from "../src/integrations/supplier-registry.ts";
import {
  type AnySupplierRegistration,
  sectionOf,
} from "../src/integrations/supplier-registration.ts";
import { createYahooFinanceSimulator } from "../src/integrations/fx/simulator.ts";
import { YAHOO_SIMULATOR_PATH } from "../src/integrations/fx/client.ts";
import { createHitPaySimulator } from "../src/integrations/hitpay/simulator.ts";
import { HITPAY_SIMULATOR_PATH } from "../src/integrations/hitpay/client.ts";
import { fetchSupplierCounts } from "../src/integrations/simulator-counts.ts";
import { checkInvariants, consumerOutcomes } from "../src/domain/ledger/invariants.ts";
import type { Db } from "../src/db/client.ts";

type Simulator = {
  handler: (request: Request) => Promise<Response>;
  knobs: SimulatorKnobs;
  [lever: string]: unknown;
};

/** Levers tests and demos may pull through POST /__sim/control (simulator mode only). */
const LEVERS = new Set([
  "setCost",
  "setOrderStatus",
  "completeOrder",
  "rejectOrders",
  "acceptOrders",
  "forceNext",
  "failEndpoint",
  "clearFaults",
  "listOrders",
  "countsByReference",
  "setBalance",
  "requireSigning",
  "setRate",
  "omitMarketPrice",
  "pay",
  "fail",
  "refund",
  "resendWebhook",
  "holdWebhooks",
  "listRequests",
  "listRefunds",
  "awaitWebhooks",
  "expire",
  "payLate",
]);

const MOUNT_PATHS: Record<string, string> = {
  ...Object.fromEntries(REGISTERED.map((r) => [r.vendor, r.simulator.path])),
  yahoo: YAHOO_SIMULATOR_PATH,
  hitpay: HITPAY_SIMULATOR_PATH,
};

/** Each registered supplier's simulator factory, loaded once (the server bundle holds none). */
const SUPPLIER_SIMULATORS = new Map(
  await Promise.all(
    REGISTERED.map(async (r: AnySupplierRegistration) => [r, await r.simulator.load()] as const),
  ),
);

export interface MountedSimulators {
  /** Handles the request when it is for a simulator; returns false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  names: string[];
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === "string") headers.set(k, v);
    else if (Array.isArray(v)) headers.set(k, v.join(", "));
  }
  const body = chunks.length && req.method !== "GET" ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function control(sims: Record<string, Simulator>, request: Request): Promise<Response> {
  const body = await request.json().catch(() => null) as
    | { target?: string; action?: string; args?: unknown[]; knobs?: Partial<SimulatorKnobs> }
    | null;
  const sim = body?.target ? sims[body.target] : undefined;
  if (!body || !sim) return Response.json({ error: "unknown target" }, { status: 400 });
  if (body.action === "setKnobs") {
    Object.assign(sim.knobs, body.knobs ?? {});
    return Response.json({ knobs: sim.knobs });
  }
  if (!body.action || !LEVERS.has(body.action) || typeof sim[body.action] !== "function") {
    return Response.json({ error: "unknown action" }, { status: 400 });
  }
  try {
    // A lever may answer later (awaitWebhooks), so its result is awaited.
    const result = await (sim[body.action] as (...a: unknown[]) => unknown)(...(body.args ?? []));
    return Response.json({ result: result ?? null });
  } catch (error) {
    // A lever refusing (an unknown id, a request already paid) is the caller's mistake.
    return Response.json({ error: String(error) }, { status: 400 });
  }
}

/** Creates the simulators of the outside services configured in simulator mode, to mount on the app. */
export function mountSimulators(config: Config): MountedSimulators {
  const env = Deno.env.toObject();
  const sims: Record<string, Simulator> = {};
  for (const [registration, create] of SUPPLIER_SIMULATORS) {
    if (sectionOf(config, registration).mode !== "simulator") continue;
    // Knobs and balance by vendor: SIM_MOOGOLD_LATENCY_MS, SIM_MOOGOLD_BALANCE …
    const prefix = `SIM_${registration.vendor.toUpperCase()}`;
    sims[registration.vendor] = create({
      basePath: registration.simulator.path,
      knobs: knobsFromEnv(prefix, env),
      balance: env[`${prefix}_BALANCE`],
    }) as unknown as Simulator;
  }
  if (config.fx.mode === "simulator") {
    sims.yahoo = createYahooFinanceSimulator({
      basePath: YAHOO_SIMULATOR_PATH,
      knobs: knobsFromEnv("SIM_YAHOO", env),
    }) as unknown as Simulator;
  }
  if (config.hitpay.mode === "simulator") {
    sims.hitpay = createHitPaySimulator({
      basePath: HITPAY_SIMULATOR_PATH,
      apiKey: config.hitpay.apiKey,
      salt: config.hitpay.salt,
      publicUrl: config.publicUrl,
      knobs: knobsFromEnv("SIM_HITPAY", env),
    }) as unknown as Simulator;
  }
  const names = Object.keys(sims);
  return {
    names,
    handle(req, res) {
      const path = (req.url ?? "").split("?")[0];
      if (!names.length || !path.startsWith("/__sim/")) return false;
      const origin = `http://${req.headers.host ?? "localhost"}`;
      (async () => {
        const request = await toRequest(req, origin);
        if (path === "/__sim/control" && req.method === "POST") {
          return await send(res, await control(sims, request));
        }
        const name = names.find((n) => path.startsWith(MOUNT_PATHS[n]));
        if (!name) return await send(res, new Response("Not found", { status: 404 }));
        await send(res, await sims[name].handler(request));
      })().catch((error) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return true;
    },
  };
}

/** The header a worker passes the browser's Host in, so the simulators build the same links. */
const FORWARDED_HOST = "x-topup-simulator-host";

/**
 * Serves `simulators` alone on a loopback port: the one place their state lives when several
 * worker processes serve the app (each worker forwards /__sim/ requests here).
 */
export async function serveSimulatorsAlone(
  simulators: MountedSimulators,
): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const host = req.headers[FORWARDED_HOST];
    if (typeof host === "string") req.headers.host = host;
    if (!simulators.handle(req, res)) res.writeHead(404).end("Not found");
  });
  await new Promise<void>((ok) => server.listen({ port: 0, host: "127.0.0.1" }, () => ok()));
  const address = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}

/** A worker's /__sim/ requests, forwarded to the simulators served by `serveSimulatorsAlone`. */
export function forwardSimulators(target: string): MountedSimulators {
  return {
    names: [],
    handle(req, res) {
      if (!(req.url ?? "").startsWith("/__sim/")) return false;
      (async () => {
        const request = await toRequest(req, target);
        const headers = new Headers(request.headers);
        headers.set(FORWARDED_HOST, req.headers.host ?? "localhost");
        headers.delete("host");
        headers.delete("connection");
        await send(
          res,
          await fetch(request.url, {
            method: request.method,
            headers,
            body: request.body,
            redirect: "manual",
          }),
        );
      })().catch((error) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      return true;
    },
  };
}

/**
 * GET /__sim/invariants (simulator mode only, like /__sim/control): the system invariants checked
 * by this server against its own database, with what the supplier simulators at `simulatorsUrl`
 * received. The simulation asks it after every step: on PGlite no other process may open the data.
 */
export function answerInvariants(
  req: IncomingMessage,
  res: ServerResponse,
  db: Db,
  simulatorsUrl: string,
): boolean {
  if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/__sim/invariants") return false;
  (async () => {
    const supplierCounts = await fetchSupplierCounts(simulatorsUrl);
    const violations = await checkInvariants(db, { supplierCounts });
    await send(res, Response.json({ violations, supplierCounts }));
  })().catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
  return true;
}

/**
 * GET /__sim/outcomes?since=ISO (simulator mode only): how the paid HitPay consumer orders placed
 * since then ended, and how many order jobs are still due within five seconds, so the simulation
 * counts its figures once the work it started is over.
 */
export function answerOutcomes(req: IncomingMessage, res: ServerResponse, db: Db): boolean {
  const url = new URL(req.url ?? "/", "http://sim");
  if (req.method !== "GET" || url.pathname !== "/__sim/outcomes") return false;
  (async () => {
    const since = new Date(url.searchParams.get("since") ?? 0);
    const outcomes = await consumerOutcomes(db, since);
    await send(res, Response.json(outcomes));
  })().catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
  return true;
}
