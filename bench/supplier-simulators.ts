// The outside services' simulators in a process of their own, for a bench whose app and worker
// CPU must be their own: `deno run -A bench/supplier-simulators.ts` prints "Simulators on URL" and
// serves until SIGTERM. The app forwards /__sim/ here (TOPUP_SIMULATORS_URL, as a worker of
// `npm start` does); a `cli worker` with TOPUP_INTERNAL_URL set to this URL calls them directly.
import { mountSimulators, serveSimulatorsAlone } from "../cli/simulators.ts";
import { getConfig } from "../src/config.ts";

const served = await serveSimulatorsAlone(mountSimulators(getConfig()));
console.log(`Simulators on ${served.url}`);
Deno.addSignalListener("SIGTERM", () => {
  served.close();
  Deno.exit(0);
});
