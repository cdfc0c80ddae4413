// What a supplier's folder hands the app in one object, its registration: everything the app
// otherwise would have to be taught about it by name (its environment variables and config
// section, its client live and against its simulator, the simulator itself, its port, what the
// doctor says of it, its low-balance threshold). The app loops over the registered suppliers
// (supplier-registry.ts) wherever it needs one of these.
import type { z } from "zod";
import type { ServiceMode } from "../config-fields.ts";
import type { SupplierPort, SupplierProfile } from "./supplier-port.ts";
import type { SimulatorKnobs } from "./simulator-kit.ts";

export type { ServiceMode };

/** What every supplier's section of the configuration has. */
export interface SupplierSection {
  mode: ServiceMode;
  /** The live service's address (the doctor shows it). */
  baseUrl: string;
}

/** What every supplier client is built with, whatever the supplier. */
export interface ClientSettings {
  timeoutMs: number;
  /** Calls one process has out at the supplier at once (SUPPLIER_CONCURRENCY). */
  maxInFlight: number;
  /** The shop's own address (PUBLIC_URL), when set. */
  publicUrl?: string;
}

/** How the app mounts a supplier's simulator. */
export interface SimulatorOptions {
  basePath: string;
  /** From SIM_<VENDOR>_* variables (simulator-kit.ts knobsFromEnv). */
  knobs: Partial<SimulatorKnobs>;
  /** The starting balance, from SIM_<VENDOR>_BALANCE. */
  balance?: string;
}

/** A mounted simulator: its handler and live knobs (its levers are reached by name). */
export interface SupplierSimulator {
  handler: (request: Request) => Promise<Response>;
  knobs: SimulatorKnobs;
}

/** The supplier's environment variables and the config section they make. */
export interface SupplierEnv<F extends z.ZodRawShape, S extends SupplierSection> {
  /** Its mode's variable ('MOOGOLD_MODE'); unset, live in production and simulated in the demo. */
  modeVariable: string;
  /** Its other variables, merged into the app's environment schema. */
  fields: F;
  /** Its section of the configuration (config[vendor]), from its parsed variables and mode. */
  section(env: z.output<z.ZodObject<F>>, mode: ServiceMode): S;
  /** Why its section cannot work (credentials missing when live): sentences naming variables. */
  problems(section: S): string[];
  /**
   * Its credentials: never echoed in a configuration error; in production none may be a value
   * published here; in the demo, one set means live selling was meant.
   */
  secrets: readonly string[];
  /** Its live service's addresses: they carry credentials, so production wants https. */
  urls: readonly string[];
}

/** One supplier, as its folder registers it (supplier-registry.ts REGISTERED). */
export interface SupplierRegistration<
  V extends string,
  C,
  F extends z.ZodRawShape,
  S extends SupplierSection,
  K extends Record<string, string>,
> extends SupplierProfile {
  /** Also its key in the configuration, the clients, the simulators and its alert setting. */
  vendor: V;
  env: SupplierEnv<F, S>;
  client: {
    /** The client of the live service (its section is live: its problems are none). */
    live(section: S, settings: ClientSettings): C;
    /** The client of its simulator, mounted at `simulator.path` on the app at `appUrl`. */
    simulated(appUrl: string, settings: ClientSettings): C;
  };
  simulator: {
    /** Where the app mounts it, under /__sim/. */
    path: string;
    /** What it accepts: published in this repository, so never a production credential. */
    credentials: K;
    /**
     * Its factory, loaded only where simulators are mounted (cli/simulators.ts), so the server
     * bundle never carries a simulator.
     */
    load(): Promise<(options: SimulatorOptions) => SupplierSimulator>;
  };
  port(client: C): SupplierPort;
  /**
   * The doctor's live check is the port's balance; this adds what else the check learnt (after the
   * balance, e.g. that a signature was accepted).
   */
  doctorNote?(client: C): string;
  /** The default of its low-balance alert (`<vendor>MinBalance`), in its balance currency. */
  minBalanceDefault: number;
}

/** Any registration, as lists of them hold it. */
// deno-lint-ignore no-explicit-any
export type AnySupplierRegistration = SupplierRegistration<string, any, any, any, any>;

/** Each registration's clients, under its vendor: `{ moogold: MoogoldClient, … }`. */
export type SupplierClients<R extends readonly AnySupplierRegistration[]> = {
  [G in R[number] as G["vendor"]]: ReturnType<G["client"]["live"]>;
};

/** Each registration's config section, under its vendor: `{ moogold: { mode, baseUrl, … }, … }`. */
export type SupplierSections<R extends readonly AnySupplierRegistration[]> = {
  [G in R[number] as G["vendor"]]: ReturnType<G["env"]["section"]>;
};

/** Each registration's simulator credentials, under its vendor. */
export type SupplierSimulatorCredentials<R extends readonly AnySupplierRegistration[]> = {
  [G in R[number] as G["vendor"]]: G["simulator"]["credentials"];
};

/** A registration, its parts' types inferred from one another. */
export function defineSupplier<
  V extends string,
  C,
  F extends z.ZodRawShape,
  S extends SupplierSection,
  K extends Record<string, string>,
>(registration: SupplierRegistration<V, C, F, S, K>): SupplierRegistration<V, C, F, S, K> {
  return registration;
}

/** The registration's section of a configuration built with it. */
export function sectionOf(
  config: object,
  registration: AnySupplierRegistration,
): SupplierSection {
  const section = (config as Record<string, SupplierSection | undefined>)[registration.vendor];
  if (!section) throw new Error(`the configuration has no section ${registration.vendor}`);
  return section;
}
