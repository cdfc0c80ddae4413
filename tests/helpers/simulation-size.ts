import { type Backend, testBackend } from "./backends.ts";

/**
 * The seeds a run simulates on a backend: `npm test` runs 200 on PostgreSQL, the backend a shop
 * runs on, and 100 on PGlite (the demo's; a seed costs it three times the CPU); `npm run test:long`
 * (LONG=1) runs 2000 and 200.
 */
function defaultSeeds(backend: Backend, long: boolean): number {
  if (backend === "postgres") return long ? 2000 : 200;
  return long ? 200 : 100;
}

/**
 * How much of the simulation a process does: its backend's seeds in schedules of 5 steps.
 * SIM_SEEDS, SIM_STEPS and SIM_FIRST_SEED override either (tests/run.ts sets SIM_FIRST_SEED and
 * SIM_SEEDS for each part, see simulationParts).
 */
export function simulationSize(): { seeds: number; steps: number; firstSeed: number } {
  const long = Boolean(Deno.env.get("LONG"));
  return {
    seeds: Number(Deno.env.get("SIM_SEEDS") ?? defaultSeeds(testBackend(), long)),
    steps: Number(Deno.env.get("SIM_STEPS") ?? 5),
    firstSeed: Number(Deno.env.get("SIM_FIRST_SEED") ?? 1),
  };
}

/**
 * The seed ranges `npm test` runs tests/api/simulation_test.ts in, each in a process of its own
 * with its own database and server, side by side: a schedule does not depend on the seeds before
 * it, and a simulation mostly waits (on supplier timeouts and slow answers), so parts finish
 * sooner together than one process going through every seed.
 */
export function simulationParts(
  backend: Backend,
  long: boolean,
): { firstSeed: number; seeds: number }[] {
  const total = defaultSeeds(backend, long);
  const size = long ? 250 : 100;
  const parts = [];
  for (let first = 1; first <= total; first += size) {
    parts.push({ firstSeed: first, seeds: Math.min(size, total - first + 1) });
  }
  return parts;
}

/**
 * The server a simulation runs against: client addresses from X-Forwarded-For (each simulated
 * buyer has its own), supplier orders that complete quickly so refreshes see outcomes, and a 1 s
 * supplier timeout, below the slow answers it injects (1.1 to 1.6 s).
 */
export const SIM_SERVER_ENV: Record<string, string> = {
  SUPPLIER_TIMEOUT_MS: "1000",
  TRUST_PROXY: "true",
  RESELLER_2FA_DEFAULT: "false",
  SIM_MOOGOLD_COMPLETE_AFTER_MS: "300",
  SIM_ELITEDIAS_COMPLETE_AFTER_MS: "300",
};
