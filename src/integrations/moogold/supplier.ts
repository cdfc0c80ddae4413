// MooGold's registration: its environment (MOOGOLD_*), its client live and against the mounted
// simulator, its port, and what the doctor adds about its signing.
import { z } from "zod";
import { url } from "../../config-fields.ts";
import { defineSupplier } from "../supplier-registration.ts";
import { createMoogoldClient, describeSigning } from "./client.ts";
import { createMoogoldPort, MOOGOLD_PROFILE } from "./port.ts";

/** What the mounted MooGold simulator accepts (published: the demo's, never a real account). */
export const MOOGOLD_SIMULATOR_CREDENTIALS = { partnerId: "sim_partner", secretKey: "sim_secret" };

const SIMULATOR_PATH = "/__sim/moogold";

/** MooGold in the supplier registry. */
export const moogoldSupplier = defineSupplier({
  ...MOOGOLD_PROFILE,
  vendor: "moogold",
  env: {
    modeVariable: "MOOGOLD_MODE",
    fields: {
      MOOGOLD_BASE_URL: url(["http://", "https://"]).default(
        "https://moogold.com/wp-json/v1/api/",
      ),
      MOOGOLD_PARTNER_ID: z.string().min(1).optional(),
      MOOGOLD_SECRET_KEY: z.string().min(1).optional(),
    },
    section: (e, mode) => ({
      mode,
      baseUrl: e.MOOGOLD_BASE_URL,
      partnerId: e.MOOGOLD_PARTNER_ID,
      secretKey: e.MOOGOLD_SECRET_KEY,
    }),
    problems: (s) =>
      s.mode === "live" && (!s.partnerId || !s.secretKey)
        ? ["MOOGOLD_PARTNER_ID and MOOGOLD_SECRET_KEY: required when MooGold is live"]
        : [],
    secrets: ["MOOGOLD_PARTNER_ID", "MOOGOLD_SECRET_KEY"],
    urls: ["MOOGOLD_BASE_URL"],
  },
  client: {
    // The non-null assertions are the section's problems: live requires both.
    live: (s, settings) =>
      createMoogoldClient({
        baseUrl: s.baseUrl,
        partnerId: s.partnerId!,
        secretKey: s.secretKey!,
        timeoutMs: settings.timeoutMs,
        maxInFlight: settings.maxInFlight,
      }),
    simulated: (appUrl, settings) =>
      createMoogoldClient({
        baseUrl: `${appUrl}${SIMULATOR_PATH}/`,
        ...MOOGOLD_SIMULATOR_CREDENTIALS,
        timeoutMs: settings.timeoutMs,
        maxInFlight: settings.maxInFlight,
      }),
  },
  simulator: {
    path: SIMULATOR_PATH,
    credentials: MOOGOLD_SIMULATOR_CREDENTIALS,
    load: async () => {
      const { createMoogoldSimulator } = await import("./simulator.ts");
      return (options) => createMoogoldSimulator({ ...options, ...MOOGOLD_SIMULATOR_CREDENTIALS });
    },
  },
  port: createMoogoldPort,
  /**
   * The balance proves the credentials and the signature scheme (user/balance is signed like every
   * call). Only create_order carries partnerOrderId, and the doctor orders nothing, so which
   * signing MooGold takes for orders is said as configured: a server learns it from its first
   * order (createOrderSigning).
   */
  doctorNote: (client) =>
    `(signature accepted); orders signed ` +
    `${describeSigning(client.createOrderSigning().partnerOrderIdSigned)} (only an order can ` +
    "confirm it; a 109 refusal is re-signed once the other way)",
  minBalanceDefault: 100,
});
