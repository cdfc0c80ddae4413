import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";
import { createMoogoldSimulator } from "../../src/integrations/moogold/simulator.ts";
import { createElitediasSimulator } from "../../src/integrations/elitedias/simulator.ts";
import { createMoogoldClient } from "../../src/integrations/moogold/client.ts";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import { SIMULATOR_CREDENTIALS } from "../../src/config.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";

/**
 * Both supplier simulators on a free port, with clients pointed at them. The clients' timeout is
 * generous so a loaded machine never turns a slow answer into a failed set-up; a step that tests a
 * timeout forces one with the simulator's lever.
 */
export function startTestSuppliers(timeoutMs = 3000) {
  const moogold = createMoogoldSimulator({ basePath: "/mg", ...SIMULATOR_CREDENTIALS.moogold });
  const elitedias = createElitediasSimulator({
    basePath: "/ed",
    apiKey: SIMULATOR_CREDENTIALS.elitedias.apiKey,
  });
  /** Requests that reached the server, by path, faults included ("/ed/elitedias_reseller_topup_api"). */
  const requests = new Map<string, number>();
  const server = startSimulatorServer(async (request) => {
    const path = new URL(request.url).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    return path.startsWith("/mg")
      ? await moogold.handler(request)
      : await elitedias.handler(request);
  });
  const suppliers: Suppliers = {
    moogold: createMoogoldClient({
      baseUrl: `${server.url}/mg/`,
      ...SIMULATOR_CREDENTIALS.moogold,
      timeoutMs,
    }),
    elitedias: createElitediasClient({
      baseUrl: `${server.url}/ed`,
      checkIdUrl: `${server.url}/ed/checkid`,
      apiKey: SIMULATOR_CREDENTIALS.elitedias.apiKey,
      origin: "https://shop.example",
      timeoutMs,
    }),
  };
  return {
    suppliers,
    moogold,
    elitedias,
    /** How many requests reached `path`, whatever the simulator answered. */
    requestsTo: (path: string) => requests.get(path) ?? 0,
    close: () => server.close(),
  };
}
