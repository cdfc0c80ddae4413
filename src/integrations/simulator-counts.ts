// Reads what the mounted supplier simulators received, by our reference, through the simulator
// control endpoint (`/__sim/control`, lever countsByReference): the evidence for the invariant
// "no order was sent to a supplier twice".
import type { ReferenceCount } from "./simulator-kit.ts";
import { SUPPLIER_PROFILES } from "./supplier-registry.ts";

/** One supplier's count for one of our references. */
export interface SupplierReferenceCount extends ReferenceCount {
  /** The supplier as orders name it (its key: "monkey" for MooGold). */
  supplier: string;
}

/**
 * Asks the simulators served at `baseUrl` for their counts; null when they cannot be reached or
 * answer anything but their counts (no simulators there).
 */
export async function fetchSupplierCounts(
  baseUrl: string,
): Promise<SupplierReferenceCount[] | null> {
  const counts: SupplierReferenceCount[] = [];
  // Each simulator is mounted under its supplier's vendor.
  for (const { key: supplier, vendor } of SUPPLIER_PROFILES) {
    try {
      const r = await fetch(new URL("/__sim/control", baseUrl), {
        method: "POST",
        body: JSON.stringify({ target: vendor, action: "countsByReference" }),
        signal: AbortSignal.timeout(5000),
      });
      if (!r.ok) {
        await r.body?.cancel();
        return null;
      }
      const { result } = await r.json() as { result: ReferenceCount[] };
      if (!Array.isArray(result)) return null;
      counts.push(...result.map((c) => ({ ...c, supplier })));
    } catch {
      return null;
    }
  }
  return counts;
}
