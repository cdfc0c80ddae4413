import type { Config } from "../config.ts";
import { REGISTERED, type Suppliers } from "./supplier-registry.ts";
import {
  type AnySupplierRegistration,
  type ClientSettings,
  sectionOf,
} from "./supplier-registration.ts";

export type { Suppliers };

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

/** What every supplier client of this configuration is built with. */
export function clientSettingsOf(
  config: Config,
  timeoutMs = config.supplierTimeoutMs,
): ClientSettings {
  return {
    timeoutMs,
    maxInFlight: config.supplierConcurrency,
    publicUrl: config.publicUrl,
  };
}

/** The client of `registration`'s live service (config requires its credentials when live). */
export function createLiveClient(registration: AnySupplierRegistration, config: Config): unknown {
  return registration.client.live(sectionOf(config, registration), clientSettingsOf(config));
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
  return Object.fromEntries(
    REGISTERED.map((r: AnySupplierRegistration) => [
      r.vendor,
      sectionOf(config, r).mode === "live"
        ? createLiveClient(r, config)
        : r.client.simulated(internalBaseUrl(), clientSettingsOf(config, timeoutMs)),
    ]),
  ) as Suppliers;
}
