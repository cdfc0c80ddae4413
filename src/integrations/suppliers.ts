import { type Config, SIMULATOR_CREDENTIALS } from "../config.ts";
import { createMoogoldClient, type MoogoldClient } from "./moogold/client.ts";
import { createElitediasClient, type ElitediasClient } from "./elitedias/client.ts";

/** Where the app mounts the simulators when a supplier runs in simulator mode. */
export const SIMULATOR_PATHS = { moogold: "/__sim/moogold", elitedias: "/__sim/elitedias" };

export interface Suppliers {
  moogold: MoogoldClient;
  elitedias: ElitediasClient;
}

/**
 * The app's own base URL, for clients that talk to the simulators mounted on this server. The
 * server sets it once it listens (the port may have been picked by the OS).
 */
export function internalBaseUrl(): string {
  const url = Deno.env.get("TOPUP_INTERNAL_URL");
  if (!url) throw new Error("TOPUP_INTERNAL_URL is not set: the server has not started");
  return url;
}

const SUPPLIERS_KEY = Symbol.for("topup.suppliers");

/** The client of live MooGold (config.moogold.mode is "live": config requires its credentials). */
export function createLiveMoogoldClient(config: Config): MoogoldClient {
  const mg = config.moogold;
  return createMoogoldClient({
    baseUrl: mg.baseUrl,
    partnerId: mg.partnerId!,
    secretKey: mg.secretKey!,
    timeoutMs: config.supplierTimeoutMs,
    maxInFlight: config.supplierConcurrency,
  });
}

/** The client of live EliteDias (config.elitedias.mode is "live": config requires its key). */
export function createLiveElitediasClient(config: Config): ElitediasClient {
  const ed = config.elitedias;
  return createElitediasClient({
    baseUrl: ed.baseUrl,
    checkIdUrl: ed.checkIdUrl,
    apiKey: ed.apiKey!,
    origin: ed.origin ?? config.publicUrl ?? "https://localhost",
    timeoutMs: config.supplierTimeoutMs,
    maxInFlight: config.supplierConcurrency,
  });
}

/** The supplier clients: live vendors or the mounted simulators, as configured. */
export function getSuppliers(config: Config): Suppliers {
  const g = globalThis as { [SUPPLIERS_KEY]?: Suppliers };
  g[SUPPLIERS_KEY] ??= createSuppliers(config);
  return g[SUPPLIERS_KEY];
}

/**
 * New supplier clients, as configured; `timeoutMs` overrides SUPPLIER_TIMEOUT_MS for the mounted
 * simulators (the demo's start-up reads their catalogues through this same busy process).
 */
export function createSuppliers(
  config: Config,
  timeoutMs = config.supplierTimeoutMs,
): Suppliers {
  const moogold = config.moogold.mode === "live"
    ? createLiveMoogoldClient(config)
    : createMoogoldClient({
      baseUrl: `${internalBaseUrl()}${SIMULATOR_PATHS.moogold}/`,
      ...SIMULATOR_CREDENTIALS.moogold,
      timeoutMs,
      maxInFlight: config.supplierConcurrency,
    });
  const elitedias = config.elitedias.mode === "live"
    ? createLiveElitediasClient(config)
    : createElitediasClient({
      baseUrl: `${internalBaseUrl()}${SIMULATOR_PATHS.elitedias}`,
      checkIdUrl: `${internalBaseUrl()}${SIMULATOR_PATHS.elitedias}/checkid`,
      apiKey: SIMULATOR_CREDENTIALS.elitedias.apiKey,
      origin: config.publicUrl ?? internalBaseUrl(),
      timeoutMs,
      maxInFlight: config.supplierConcurrency,
    });
  return { moogold, elitedias };
}
