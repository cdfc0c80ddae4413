import { testBackend } from "./backends.ts";

/**
 * How much of the simulation a run does: CI runs 200 seeds of 5 steps; `npm run test:long`
 * (LONG=1) runs 2000 on PostgreSQL, the backend a shop with many seeds' worth of traffic runs on,
 * and keeps PGlite at 200 so the long run ends within 45 minutes on two cores. SIM_SEEDS,
 * SIM_STEPS and SIM_FIRST_SEED override either.
 */
export function simulationSize(): { seeds: number; steps: number; firstSeed: number } {
  const long = Boolean(Deno.env.get("LONG")) && testBackend() === "postgres";
  return {
    seeds: Number(Deno.env.get("SIM_SEEDS") ?? (long ? 2000 : 200)),
    steps: Number(Deno.env.get("SIM_STEPS") ?? 5),
    firstSeed: Number(Deno.env.get("SIM_FIRST_SEED") ?? 1),
  };
}

/**
 * The server a simulation runs against: client addresses from X-Forwarded-For (each simulated
 * buyer has its own), and supplier orders that complete quickly so refreshes see outcomes.
 */
export const SIM_SERVER_ENV: Record<string, string> = {
  TRUST_PROXY: "true",
  RESELLER_2FA_DEFAULT: "false",
  SIM_MOOGOLD_COMPLETE_AFTER_MS: "300",
  SIM_ELITEDIAS_COMPLETE_AFTER_MS: "300",
};
