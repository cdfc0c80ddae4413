import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";
import { createMoogoldSimulator } from "../../src/integrations/moogold/simulator.ts";
import { createElitediasSimulator } from "../../src/integrations/elitedias/simulator.ts";
import { createHitPaySimulator } from "../../src/integrations/hitpay/simulator.ts";
import { createYahooFinanceSimulator } from "../../src/integrations/fx/simulator.ts";
import { createMoogoldClient } from "../../src/integrations/moogold/client.ts";
import { createElitediasClient } from "../../src/integrations/elitedias/client.ts";
import type { Suppliers } from "../../src/integrations/suppliers.ts";
import { freePort } from "./harness.ts";
import { OWASP_SCRYPT_LOG_N } from "../../src/config.ts";

/** Where production's outside services are: the base URL of each, as its variable takes it. */
export interface ServiceUrls {
  moogold: string;
  elitedias: string;
  elitediasCheckId: string;
  hitpay: string;
  fx: string;
}

/** Account credentials of our own: none of them is a simulator's published default. */
export const OWN_CREDENTIALS = {
  MOOGOLD_PARTNER_ID: "partner-4821",
  MOOGOLD_SECRET_KEY: "mg-secret-7f3a9c2e",
  ELITEDIAS_API_KEY: "ed-key-5b8d1f4a",
  HITPAY_API_KEY: "hp-key-91c4e7b2",
  HITPAY_SALT: "hp-salt-2d6f8a0c",
};

/** The public origin every production environment of the tests is reached at. */
export const PUBLIC_URL = "https://shop.example.com";

/**
 * An environment production accepts (every service live, secrets of its own, an https public
 * URL, a first admin), with the outside services at `services`.
 */
export function productionEnv(services: ServiceUrls): Record<string, string> {
  return {
    APP_MODE: "production",
    // The test runner lowers scrypt's cost for speed; production insists on OWASP's.
    SCRYPT_LOG_N: String(OWASP_SCRYPT_LOG_N),
    PUBLIC_URL,
    APP_SECRET: "3f9c2a71e8d4b6059a1c7e2f8b3d4a6c",
    ...OWN_CREDENTIALS,
    MOOGOLD_BASE_URL: services.moogold,
    ELITEDIAS_BASE_URL: services.elitedias,
    ELITEDIAS_CHECKID_URL: services.elitediasCheckId,
    HITPAY_BASE_URL: services.hitpay,
    FX_BASE_URL: services.fx,
    SMTP_URL: `smtp://127.0.0.1:${freePort()}`,
    MAIL_FROM: "TopUp <receipts@example.com>",
    WHATSAPP_URL: "https://wa.me/6591234567",
    TELEGRAM_URL: "https://t.me/topup",
    ADMIN_EMAIL: "ops@example.com",
    ADMIN_PASSWORD: "a long production password",
  };
}

/**
 * Service URLs where nothing answers: a port on 127.0.0.1 that nobody listens on (connection
 * refused) and, for EliteDias, a name under .invalid, which never resolves (RFC 2606).
 */
export function unreachableServices(): ServiceUrls {
  const closed = `http://127.0.0.1:${freePort()}`;
  return {
    moogold: `${closed}/moogold/`,
    elitedias: "https://elitedias.topup-test.invalid",
    elitediasCheckId: "https://elitedias.topup-test.invalid/checkid",
    hitpay: `${closed}/hitpay/v1`,
    fx: `${closed}/yahoo`,
  };
}

/**
 * The four simulators on one local port, taking OWN_CREDENTIALS: production's "live" services
 * for a test, with clients of the suppliers to fill a catalogue from them.
 */
export function startLiveServiceSimulators(timeoutMs = 3000) {
  const moogold = createMoogoldSimulator({
    basePath: "/mg",
    partnerId: OWN_CREDENTIALS.MOOGOLD_PARTNER_ID,
    secretKey: OWN_CREDENTIALS.MOOGOLD_SECRET_KEY,
  });
  const elitedias = createElitediasSimulator({
    basePath: "/ed",
    apiKey: OWN_CREDENTIALS.ELITEDIAS_API_KEY,
  });
  const hitpay = createHitPaySimulator({
    basePath: "/hp",
    apiKey: OWN_CREDENTIALS.HITPAY_API_KEY,
    salt: OWN_CREDENTIALS.HITPAY_SALT,
  });
  const yahoo = createYahooFinanceSimulator({ basePath: "/yahoo" });
  const sims = { mg: moogold, ed: elitedias, hp: hitpay, yahoo };
  const server = startSimulatorServer(async (request) => {
    const first = new URL(request.url).pathname.split("/")[1] as keyof typeof sims;
    return sims[first] ? await sims[first].handler(request) : new Response(null, { status: 404 });
  });
  const services: ServiceUrls = {
    moogold: `${server.url}/mg/`,
    elitedias: `${server.url}/ed`,
    elitediasCheckId: `${server.url}/ed/checkid`,
    hitpay: `${server.url}/hp/v1`,
    fx: `${server.url}/yahoo`,
  };
  const suppliers: Suppliers = {
    moogold: createMoogoldClient({
      baseUrl: services.moogold,
      partnerId: OWN_CREDENTIALS.MOOGOLD_PARTNER_ID,
      secretKey: OWN_CREDENTIALS.MOOGOLD_SECRET_KEY,
      timeoutMs,
    }),
    elitedias: createElitediasClient({
      baseUrl: services.elitedias,
      checkIdUrl: services.elitediasCheckId,
      apiKey: OWN_CREDENTIALS.ELITEDIAS_API_KEY,
      origin: PUBLIC_URL,
      timeoutMs,
    }),
  };
  return { services, suppliers, hitpay, close: () => server.close() };
}
