// `npm run sim -- --seed N [--steps S] [--to M]`: replays seed N (or seeds N..M) of the simulation
// against a fresh database (TEST_BACKEND, PGlite unless set) and a new server, printing each step.
import { parseArgs } from "node:util";
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "./helpers/backends.ts";
import { startTestServer } from "./helpers/server.ts";
import { figureSummary, openSimWorld, runSeed } from "./helpers/simulation.ts";
import { SIM_SERVER_ENV, simulationSize } from "./helpers/simulation-size.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { seed: { type: "string" }, to: { type: "string" }, steps: { type: "string" } },
});
if (!values.seed) {
  console.error("usage: npm run sim -- --seed N [--to M] [--steps S]");
  Deno.exit(2);
}
const first = Number(values.seed);
const last = Number(values.to ?? values.seed);
const steps = Number(values.steps ?? simulationSize().steps);
if (buildIsStale()) await buildApp();
const tdb = await createTestDatabase();
const server = await startTestServer(tdb, SIM_SERVER_ENV);
let failed = false;
try {
  const world = await openSimWorld(server.url);
  for (let seed = first; seed <= last; seed++) {
    await runSeed(world, seed, { steps, log: console.log });
    console.log(`seed ${seed}: invariants held after every step`);
  }
  console.log(JSON.stringify(figureSummary(world.figures)));
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  await server.stop();
  await tdb.drop().catch((error) => {
    failed = true;
    console.error(String(error));
  });
}
Deno.exit(failed ? 1 : 0);
