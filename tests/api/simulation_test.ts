import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { openSimWorld, runSeed } from "../helpers/simulation.ts";
import { SIM_SERVER_ENV, simulationSize } from "../helpers/simulation-size.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const { seeds, steps, firstSeed } = simulationSize();

Deno.test({
  name:
    `[simulation] ${seeds} seeded schedules of ${steps} steps against the server and simulators: every invariant holds after every step`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, SIM_SERVER_ENV);
    try {
      // One server, fresh resellers per seed: a schedule does not depend on the seeds before it.
      const world = await openSimWorld(server.url);
      for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
        await runSeed(world, seed, { steps });
      }
      console.log(`simulation figures: ${JSON.stringify(world.figures)}`);
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
