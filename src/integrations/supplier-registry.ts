// Every supplier the shop can send orders to, by the key the database stores for it. A new
// supplier is a folder beside moogold/ and elitedias/ (its client and its port) and one line in
// REGISTERED.
import type { Suppliers } from "./suppliers.ts";
import type { SupplierPort, SupplierProfile } from "./supplier-port.ts";
import { moogoldSupplier } from "./moogold/port.ts";
import { elitediasSupplier } from "./elitedias/port.ts";

/** One supplier: what is known of it, and its port over the clients. */
export interface SupplierRegistration extends SupplierProfile {
  port(suppliers: Suppliers): SupplierPort;
}

const REGISTERED: readonly SupplierRegistration[] = [
  moogoldSupplier,
  elitediasSupplier,
];

/** The registered suppliers' keys, in registration order. */
export const SUPPLIER_KEYS = REGISTERED.map((r) => r.key) as [string, ...string[]];

/** Whether `key` names a registered supplier (games of other keys are sold without one). */
export function isSupplierKey(key: string): boolean {
  return REGISTERED.some((r) => r.key === key);
}

/** What is known of the supplier stored as `key`, without its clients; undefined for none. */
export function supplierProfile(key: string): SupplierProfile | undefined {
  return REGISTERED.find((r) => r.key === key);
}

/** What is known of every registered supplier, in registration order. */
export const SUPPLIER_PROFILES: readonly SupplierProfile[] = REGISTERED;

/** Each set of clients' ports, built once: every order's job asks for its supplier's. */
const PORTS = new WeakMap<Suppliers, SupplierPort[]>();

/** The port of every registered supplier over these clients, in registration order. */
export function supplierPorts(suppliers: Suppliers): SupplierPort[] {
  let ports = PORTS.get(suppliers);
  if (!ports) {
    ports = REGISTERED.map((r) => r.port(suppliers));
    PORTS.set(suppliers, ports);
  }
  return ports;
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
