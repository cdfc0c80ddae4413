// `cli doctor`: is this configuration fit for its mode, and (with --live) do the outside services
// answer it? One read-only call per live service, through the app's own clients: each supplier's
// balance through its port (and what its registration adds, e.g. how MooGold's orders are
// signed), a HitPay payment request that does not exist, Yahoo's USD→SGD rate. Nothing is
// ordered, paid or changed anywhere.

import { type Config, ConfigError, isHitPaySandbox, loadConfigWith } from "../../config.ts";
import type { SupplierError, SupplierResult } from "../../integrations/fetch-json.ts";
import { REGISTERED } from "../../integrations/supplier-registry.ts";
import {
  type AnySupplierRegistration,
  sectionOf,
} from "../../integrations/supplier-registration.ts";
import { createLiveClient } from "../../integrations/suppliers.ts";
import { createLiveHitPayClient, HitPayError } from "../../integrations/hitpay/client.ts";
import { createLiveYahooFinanceClient } from "../../integrations/fx/client.ts";

/**
 * What the doctor found: whether all is well (the exit code), the lines to show, and the same
 * for a script (`doctor --json`): the mode, each problem, each outside service and its live call.
 */
export interface DoctorReport {
  ok: boolean;
  lines: string[];
  mode: string;
  problems: string[];
  services: { name: string; mode: "simulator" | "live"; url: string; live?: LiveCheck }[];
}

/** The outcome of one service's live call. */
export interface LiveCheck {
  ok: boolean;
  /** What answered (a balance, a rate) or why nothing usable did. */
  detail: string;
}

/** An outside service: its name, whether it is simulated, where it is, and its live call. */
interface Service {
  name: string;
  mode: "simulator" | "live";
  url: string;
  note?: string;
  check(): Promise<LiveCheck>;
}

/** Any id HitPay cannot know: asking for it proves the key without touching a real request. */
const NO_SUCH_PAYMENT_REQUEST = "00000000-0000-4000-8000-000000000000";

function servicesOf(
  config: Config,
  registrations: readonly AnySupplierRegistration[],
): Service[] {
  return [
    ...registrations.map((registration): Service => {
      const section = sectionOf(config, registration);
      return {
        name: registration.name,
        mode: section.mode,
        url: section.baseUrl,
        check: () => checkSupplier(registration, config),
      };
    }),
    {
      name: "HitPay",
      mode: config.hitpay.mode,
      url: config.hitpay.baseUrl,
      note: isHitPaySandbox(config.hitpay.baseUrl)
        ? "the sandbox: no real money is taken"
        : undefined,
      check: () => checkHitPayKey(config),
    },
    {
      name: "Yahoo Finance",
      mode: config.fx.mode,
      url: config.fx.baseUrl,
      check: async () =>
        describeResult(
          await createLiveYahooFinanceClient(config).usdSgdRate(),
          (rate) => `USD→SGD rate ${rate}`,
        ),
    },
  ];
}

/** Why a call produced nothing usable, in the operator's words. */
function describeFailure(error: Pick<SupplierError, "kind" | "message" | "code">): string {
  switch (error.kind) {
    case "timeout":
      return `timed out: ${error.message}`;
    case "network":
      return `unreachable: ${error.message}`;
    case "http":
      return error.message;
    case "supplier":
      return `refused: ${error.message}${error.code ? ` (error ${error.code})` : ""}`;
    case "malformed":
      return `unexpected answer: ${error.message}`;
    case "throttled":
      return `rate-limited: ${error.message}`;
  }
}

function describeResult<T>(result: SupplierResult<T>, show: (value: T) => string): LiveCheck {
  return result.ok
    ? { ok: true, detail: show(result.value) }
    : { ok: false, detail: describeFailure(result) };
}

/**
 * A live supplier's balance through its port, which proves its credentials, with what its
 * registration adds about the call (`doctorNote`).
 */
async function checkSupplier(
  registration: AnySupplierRegistration,
  config: Config,
): Promise<LiveCheck> {
  const client = createLiveClient(registration, config);
  const r = await registration.port(client).readBalance();
  if (!r.ok) return { ok: false, detail: describeFailure({ ...r, message: r.error }) };
  const note = registration.doctorNote?.(client);
  return { ok: true, detail: `balance ${r.balance} ${r.currency}${note ? ` ${note}` : ""}` };
}

/**
 * HitPay has no balance call in its payment-request API: a read of a payment request that does
 * not exist is answered 404 once the key is accepted, 401 or 403 when it is not.
 */
async function checkHitPayKey(config: Config): Promise<LiveCheck> {
  try {
    await createLiveHitPayClient(config).getPaymentRequest(NO_SUCH_PAYMENT_REQUEST);
    return { ok: true, detail: "the API key was accepted" };
  } catch (error) {
    if (!(error instanceof HitPayError)) throw error;
    if (error.status === 404) {
      return {
        ok: true,
        detail: "the API key was accepted (a payment request that does not exist is not found)",
      };
    }
    if (error.status === 401 || error.status === 403) {
      return { ok: false, detail: `bad API key: ${error.message}` };
    }
    return { ok: false, detail: describeFailure(error) };
  }
}

/** Who may read GET /metrics (README, Operations). */
function metricsAccess(config: Config): string {
  if (config.metricsToken) return "GET /metrics with the bearer token METRICS_TOKEN";
  return config.mode === "production"
    ? "off (set METRICS_TOKEN to serve GET /metrics to a scraper holding it)"
    : "GET /metrics open (demo mode, no METRICS_TOKEN)";
}

/**
 * Examines the configuration `env` describes for its mode: every problem that would stop the
 * server, and each outside service as simulated or live. With `live`, each live service gets one
 * read-only call; a problem or a failed call makes the report not ok.
 */
export async function examineSetup(
  env: Record<string, string | undefined>,
  options: {
    live: boolean;
    /**
     * In production, what the server's start would refuse in its database (go-live.ts
     * findGoLiveProblems), one line each.
     */
    database?: (config: Config) => Promise<string[]>;
    /** The suppliers to examine: the registered ones unless a test brings its own. */
    registrations?: readonly AnySupplierRegistration[];
  },
): Promise<DoctorReport> {
  const mode = env.APP_MODE || "demo";
  const registrations = options.registrations ?? REGISTERED;
  let config: Config;
  try {
    // Nothing here reads a supplier's section by its vendor: a test's own list is as good.
    config = loadConfigWith(registrations, env) as Config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      ok: false,
      mode,
      problems: error.problems,
      services: [],
      lines: [
        `Configuration (${mode} mode): ${error.problems.length} problem(s); the server would not start`,
        ...error.problems.map((problem) => `  ${problem}`),
        ...(options.live ? ["Live checks skipped: fix the configuration first."] : []),
      ],
    };
  }
  const services = servicesOf(config, registrations);
  const lines = [`Configuration (${config.mode} mode): no problems`];
  for (const service of services) {
    const where = service.mode === "simulator"
      ? "simulated"
      : `live at ${service.url}${service.note ? ` (${service.note})` : ""}`;
    lines.push(`  ${service.name}: ${where}`);
  }
  lines.push(`  Metrics: ${metricsAccess(config)}`);
  let ok = true;
  let databaseProblems: string[] = [];
  if (config.mode === "production" && options.database) {
    databaseProblems = await options.database(config).catch((error: Error) => [
      `the database could not be checked: ${error.message}`,
    ]);
    if (databaseProblems.length) {
      ok = false;
      lines.push(
        `Database: ${databaseProblems.length} problem(s); the server would not start`,
        ...databaseProblems.map((problem) => `  ${problem}`),
      );
    } else lines.push("Database: no demo data, no published password");
  }
  const found = (checks: (LiveCheck | undefined)[] = []) => ({
    mode: config.mode,
    problems: databaseProblems,
    services: services.map(({ name, mode, url }, i) => ({ name, mode, url, live: checks[i] })),
  });
  if (!options.live) return { ok, lines, ...found() };
  lines.push("Live checks (one read-only call each):");
  const checks = await Promise.all(
    services.map((service) => service.mode === "live" ? service.check() : undefined),
  );
  services.forEach((service, i) => {
    const check = checks[i];
    const outcome = check
      ? `${check.ok ? "OK" : "FAILED"}, ${check.detail}`
      : "simulated, not called";
    lines.push(`  ${service.name}: ${outcome}`);
  });
  return { ok: ok && checks.every((check) => check?.ok ?? true), lines, ...found(checks) };
}
