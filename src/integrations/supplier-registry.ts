// Every supplier the shop can send orders to, by the key the database stores for it. A new
// supplier is a folder beside moogold/ and elitedias/ (its client, its port, its simulator and its
// registration, supplier.ts) and one line in REGISTERED: configuration, clients, simulators, the
// doctor and the low-balance alerts loop over this list.
import type { SupplierPort, SupplierProfile } from "./supplier-port.ts";
import type { AnySupplierRegistration, SupplierClients } from "./supplier-registration.ts";
import { moogoldSupplier } from "./moogold/supplier.ts";
import { elitediasSupplier } from "./elitedias/supplier.ts";

/** The registered suppliers, in the order the app lists them. */
export const REGISTERED = [
  moogoldSupplier,
  elitediasSupplier,
] as const satisfies readonly AnySupplierRegistration[];

/** The registered suppliers' registrations' type. */
export type Registered = typeof REGISTERED;

/** The supplier clients, one under each registered supplier's vendor. */
export type Suppliers = SupplierClients<Registered>;

/** What the app knows of a list of registered suppliers, and their ports over a set of clients. */
export interface SupplierWiring {
  /** Their keys, in registration order. */
  keys: [string, ...string[]];
  /** What is known of each, in registration order. */
  profiles: readonly SupplierProfile[];
  isSupplierKey(key: string): boolean;
  supplierProfile(key: string): SupplierProfile | undefined;
  /** The port of each over these clients (keyed by vendor), built once per set of clients. */
  supplierPorts(suppliers: object): SupplierPort[];
}

/**
 * The wiring of `registrations`: production's is REGISTERED's (below); a test may wire a list with
 * a supplier of its own.
 */
export function wireSuppliers(registrations: readonly AnySupplierRegistration[]): SupplierWiring {
  // Each set of clients' ports, built once: every order's job asks for its supplier's.
  const ports = new WeakMap<object, SupplierPort[]>();
  return {
    keys: registrations.map((r) => r.key) as [string, ...string[]],
    profiles: registrations,
    isSupplierKey: (key) => registrations.some((r) => r.key === key),
    supplierProfile: (key) => registrations.find((r) => r.key === key),
    supplierPorts(suppliers) {
      let built = ports.get(suppliers);
      if (!built) {
        const clients = suppliers as Record<string, unknown>;
        built = registrations.map((r) => r.port(clients[r.vendor]));
        ports.set(suppliers, built);
      }
      return built;
    },
  };
}

const WIRING = wireSuppliers(REGISTERED);

/** The registered suppliers' keys, in registration order. */
export const SUPPLIER_KEYS = WIRING.keys;

/** Whether `key` names a registered supplier (games of other keys are sold without one). */
export function isSupplierKey(key: string): boolean {
  return WIRING.isSupplierKey(key);
}

/** What is known of the supplier stored as `key`, without its clients; undefined for none. */
export function supplierProfile(key: string): SupplierProfile | undefined {
  return WIRING.supplierProfile(key);
}

/** What is known of every registered supplier, in registration order. */
export const SUPPLIER_PROFILES: readonly SupplierProfile[] = WIRING.profiles;

/** The port of every registered supplier over these clients, in registration order. */
export function supplierPorts(suppliers: Suppliers): SupplierPort[] {
  return WIRING.supplierPorts(suppliers);
}

/** The port of the supplier stored as `key`, over these clients; undefined for no supplier. */
export function supplierPort(suppliers: Suppliers, key: string): SupplierPort | undefined {
  return supplierPorts(suppliers).find((port) => port.key === key);
}

/** `supplierPort` for a key the caller knows is a supplier's (an order's, a supplier game's). */
export function requireSupplierPort(suppliers: Suppliers, key: string): SupplierPort {
  const port = supplierPort(suppliers, key);
  if (!port) throw new Error(`no supplier is registered as ${JSON.stringify(key)}`);
  return port;
}
