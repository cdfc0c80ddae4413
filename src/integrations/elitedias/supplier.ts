// EliteDias's registration: its environment (ELITEDIAS_*), its client live and against the
// mounted simulator, and its port.
import { z } from "zod";
import { url } from "../../config-fields.ts";
import { defineSupplier } from "../supplier-registration.ts";
import { createElitediasClient } from "./client.ts";
import { createElitediasPort, ELITEDIAS_PROFILE } from "./port.ts";

/** What the mounted EliteDias simulator accepts (published: the demo's, never a real account). */
export const ELITEDIAS_SIMULATOR_CREDENTIALS = { apiKey: "sim_api_key" };

const SIMULATOR_PATH = "/__sim/elitedias";

/** EliteDias in the supplier registry. */
export const elitediasSupplier = defineSupplier({
  ...ELITEDIAS_PROFILE,
  vendor: "elitedias",
  env: {
    modeVariable: "ELITEDIAS_MODE",
    fields: {
      ELITEDIAS_BASE_URL: url(["http://", "https://"]).default("https://dev.api.elitedias.com"),
      ELITEDIAS_CHECKID_URL: url(["http://", "https://"]).default(
        "https://api.elitedias.com/checkid",
      ),
      ELITEDIAS_API_KEY: z.string().min(1).optional(),
      ELITEDIAS_ORIGIN: url(["http://", "https://"]).optional(),
    },
    section: (e, mode) => ({
      mode,
      baseUrl: e.ELITEDIAS_BASE_URL,
      checkIdUrl: e.ELITEDIAS_CHECKID_URL,
      apiKey: e.ELITEDIAS_API_KEY,
      origin: e.ELITEDIAS_ORIGIN,
    }),
    problems: (s) =>
      s.mode === "live" && !s.apiKey ? ["ELITEDIAS_API_KEY: required when EliteDias is live"] : [],
    secrets: ["ELITEDIAS_API_KEY"],
    urls: ["ELITEDIAS_BASE_URL", "ELITEDIAS_CHECKID_URL"],
  },
  client: {
    // The non-null assertion is the section's problems: live requires the key.
    live: (s, settings) =>
      createElitediasClient({
        baseUrl: s.baseUrl,
        checkIdUrl: s.checkIdUrl,
        apiKey: s.apiKey!,
        origin: s.origin ?? settings.publicUrl ?? "https://localhost",
        timeoutMs: settings.timeoutMs,
        maxInFlight: settings.maxInFlight,
      }),
    simulated: (appUrl, settings) =>
      createElitediasClient({
        baseUrl: `${appUrl}${SIMULATOR_PATH}`,
        checkIdUrl: `${appUrl}${SIMULATOR_PATH}/checkid`,
        apiKey: ELITEDIAS_SIMULATOR_CREDENTIALS.apiKey,
        origin: settings.publicUrl ?? appUrl,
        timeoutMs: settings.timeoutMs,
        maxInFlight: settings.maxInFlight,
      }),
  },
  simulator: {
    path: SIMULATOR_PATH,
    credentials: ELITEDIAS_SIMULATOR_CREDENTIALS,
    load: async () => {
      const { createElitediasSimulator } = await import("./simulator.ts");
      return (options) =>
        createElitediasSimulator({ ...options, apiKey: ELITEDIAS_SIMULATOR_CREDENTIALS.apiKey });
    },
  },
  port: createElitediasPort,
  minBalanceDefault: 100,
});
