import { z } from "zod";
import type { DbOptions } from "./db/client.ts";
import { bool, serviceMode, url } from "./config-fields.ts";
import { REGISTERED, type Registered } from "./integrations/supplier-registry.ts";
import type {
  AnySupplierRegistration,
  SupplierSection,
  SupplierSections,
  SupplierSimulatorCredentials,
} from "./integrations/supplier-registration.ts";
import { secretWeakness } from "./domain/auth/secret-strength.ts";
import {
  DEFAULT_HITPAY_PAYMENT_METHODS,
  HITPAY_PAYMENT_METHOD_CODES,
  HITPAY_SANDBOX_PAYMENT_METHOD_CODES,
  type HitPayPaymentMethod,
} from "./integrations/hitpay/payment-methods.ts";

/**
 * Raised when the environment cannot describe a working (or, in production, a safe) server:
 * start-up prints it and stops. Each problem is one sentence naming its variable, on a line of
 * its own in the message.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  }
}

/** OWASP's password storage cheat sheet: scrypt N=2^17, r=8, p=1. */
export const OWASP_SCRYPT_LOG_N = 17;

/** The app's variables before the suppliers' (their order is the order problems are listed in). */
const APP_ENV = {
  APP_MODE: z.enum(["demo", "production"], {
    error: "expected 'demo' or 'production'",
  })
    .default("demo"),
  PORT: z.coerce.number({ error: "expected a port number" }).int().min(0).max(
    65535,
  ).default(
    8000,
  ),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: url(["postgres://", "postgresql://"]).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_POOL_SIZE: z.coerce.number({ error: "expected a number of connections" }).int().min(1)
    .max(1000).default(10),
  PUBLIC_URL: url(["http://", "https://"]).optional(),
  APP_SECRET: z.string().min(32, { error: "must be at least 32 characters" })
    .optional(),
  TRUST_PROXY: bool.default(false),
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(OWASP_SCRYPT_LOG_N),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(
    12,
  ),
  RESELLER_2FA_DEFAULT: bool.default(true),
  ADMIN_EMAIL: z.email({ error: "expected an email address" }).optional(),
  ADMIN_PASSWORD: z.string().min(8, { error: "must be at least 8 characters" })
    .optional(),
  ADMIN_NAME: z.string().min(1).optional(),
};

/** The app's variables after the suppliers'. */
const SERVICES_ENV = {
  SEED_DEMO_CATALOGUE: bool.default(true),
  RUN_JOBS: bool.default(true),
  WATCH_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  JOB_CONCURRENCY: z.coerce.number({ error: "expected a number of jobs" }).int().min(1).max(1000)
    .optional(),
  WORKERS: z.coerce.number({ error: "expected a number of processes" }).int().min(1).max(256)
    .optional(),
  PRIVILEGED_RESELLERS: z.string().default(""),
  BALANCE_MOVE_MAX: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, {
    error: "expected a dollar amount such as 100000 or 2500.50",
  }).default("100000"),
  SUPPLIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(
    15_000,
  ),
  SUPPLIER_CONCURRENCY: z.coerce.number({ error: "expected a number of calls" }).int().min(1)
    .max(1000).default(200),
  WEBHOOK_RETRY_DELAYS: z.string().regex(/^\d{1,6}(,\d{1,6}){0,19}$/, {
    error: "expected seconds between attempts, such as 10,60,300",
  }).default("10,60,300,1800,3600,7200,14400,28800,28800"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  STORAGE: z.enum(["local", "s3"], { error: "expected 'local' or 's3'" })
    .default("local"),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ENDPOINT: url(["http://", "https://"]).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_BASE_URL: url(["http://", "https://"]).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  FX_MODE: serviceMode.optional(),
  FX_BASE_URL: url(["http://", "https://"]).default("https://query1.finance.yahoo.com"),
  FX_CACHE_SECONDS: z.coerce.number().int().min(0).max(24 * 60 * 60).default(900),
  HITPAY_MODE: serviceMode.optional(),
  HITPAY_BASE_URL: url(["http://", "https://"]).optional(),
  HITPAY_SANDBOX: bool.default(false),
  HITPAY_API_KEY: z.string().min(1).optional(),
  HITPAY_SALT: z.string().min(1).optional(),
  HITPAY_PAYMENT_EXPIRY_MINUTES: z.coerce.number({ error: "expected a number of minutes" }).int()
    .min(5).max(7 * 24 * 60).default(30),
  HITPAY_PAYMENT_METHODS: z.string().default(DEFAULT_HITPAY_PAYMENT_METHODS.join(","))
    .transform((v) => v.split(",").map((code) => code.trim()))
    .pipe(z.array(z.enum(HITPAY_PAYMENT_METHOD_CODES, {
      error: (issue) =>
        `'${issue.input}' is not a HitPay payment method code (expected codes such as ` +
        `${DEFAULT_HITPAY_PAYMENT_METHODS.join(",")}; external-apis.md §3.2)`,
    }))),
  SMTP_URL: url(["smtp://", "smtps://"]).optional(),
  MAIL_FROM: z.string().regex(/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/, {
    error: "expected an address such as receipts@example.com or TopUp <receipts@example.com>",
  }).optional(),
  INBOUND_MAIL_SECRET: z.string().min(24, { error: "must be at least 24 characters" }).optional(),
  WHATSAPP_URL: url(["https://", "http://"]).optional(),
  TELEGRAM_URL: url(["https://", "http://"]).optional(),
  METRICS_PORT: z.coerce.number({ error: "expected a port number" }).int().min(1).max(65535)
    .optional(),
  METRICS_TOKEN: z.string().min(24, { error: "must be at least 24 characters" }).optional(),
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "expected 'json' or 'pretty'" }).default("json"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"], {
    error: "expected debug, info, warn, error or silent",
  }).default("info"),
  DRAIN_SECONDS: z.coerce.number({ error: "expected a number of seconds" }).min(0).max(300)
    .optional(),
};

/** The app's own variables (the suppliers' are their registrations'). */
const AppEnvSchema = z.object({ ...APP_ENV, ...SERVICES_ENV });

/** The variables of the app and of `registrations`: each supplier's mode, then its own. */
function envSchemaOf(registrations: readonly AnySupplierRegistration[]) {
  const suppliers = Object.fromEntries(
    registrations.flatMap((r) => [
      [r.env.modeVariable, serviceMode.optional()],
      ...Object.entries(r.env.fields as z.ZodRawShape),
    ]),
  );
  return z.object({ ...APP_ENV, ...suppliers, ...SERVICES_ENV });
}

const SCHEMAS = new WeakMap<readonly AnySupplierRegistration[], ReturnType<typeof envSchemaOf>>();

function envSchemaFor(registrations: readonly AnySupplierRegistration[]) {
  let schema = SCHEMAS.get(registrations);
  if (!schema) SCHEMAS.set(registrations, schema = envSchemaOf(registrations));
  return schema;
}

/** The key and salt the mounted HitPay simulator uses when none are configured (demo only). */
export const HITPAY_SIMULATOR_CREDENTIALS = {
  apiKey: "sim_hitpay_api_key",
  salt: "sim_hitpay_salt",
};

/** Credentials the mounted supplier simulators accept (demo only, never a real account). */
export const SIMULATOR_CREDENTIALS = Object.fromEntries(
  REGISTERED.map((r) => [r.vendor, r.simulator.credentials]),
) as SupplierSimulatorCredentials<Registered>;

/** The demo accounts' passwords (src/domain/auth/bootstrap.ts), printed in the README. */
export const DEMO_PASSWORDS = { admin: "demo-admin-pass", reseller: "demo-reseller-pass" };

/**
 * Passwords anyone can read in this repository: the demo accounts' and the README's examples. None
 * may be set as a new password, and production never accepts one at sign-in.
 */
export const PUBLISHED_PASSWORDS: readonly string[] = [
  DEMO_PASSWORDS.admin,
  DEMO_PASSWORDS.reseller,
  "a long password",
];

/** HitPay's API bases (external-apis.md §3.1): the sandbox takes no real money. */
export const HITPAY_SANDBOX_URL = "https://api.sandbox.hit-pay.com/v1";
export const HITPAY_PRODUCTION_URL = "https://api.hit-pay.com/v1";

/**
 * A URL's host as DNS resolves it: lower case (URL does that) and without the trailing dots of a
 * fully qualified name, so "api.sandbox.hit-pay.com." is the sandbox too.
 */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/\.+$/, "");
}

/** Whether `url` is on HitPay's sandbox, whose keys, payments and dashboard are all pretend. */
export function isHitPaySandbox(url: string): boolean {
  return /(^|\.)sandbox\.hit-pay\.com$/.test(hostOf(url));
}

/**
 * Whether a call to `url` is private: https, or plain http to this machine (a TLS-terminating
 * proxy beside the app), where nothing crosses a network.
 */
function isPrivateChannel(url: string): boolean {
  if (url.startsWith("https://")) return true;
  const host = hostOf(url);
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The outside services' addresses: each call to one carries its credentials or our prices. */
function serviceUrls(registrations: readonly AnySupplierRegistration[]): string[] {
  return [
    "HITPAY_BASE_URL",
    ...registrations.flatMap((r) => r.env.urls),
    "FX_BASE_URL",
    "S3_ENDPOINT",
  ];
}

/** Demo values of the settings production must set. */
const DEMO_DEFAULTS = {
  mailFrom: "TopUp <receipts@topup.test>",
  whatsappUrl: "https://wa.me/6500000000",
  telegramUrl: "https://t.me/topup_demo",
};

/** An S3-compatible bucket for uploaded images (AWS, MinIO, R2 …). */
export interface S3StorageConfig {
  kind: "s3";
  bucket: string;
  region: string;
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public URL prefix objects are read from (a CDN or public bucket domain), no trailing slash. */
  publicBaseUrl?: string;
  forcePathStyle: boolean;
}

/** The configuration of the app itself, whichever suppliers are registered. */
export interface AppConfig {
  mode: "demo" | "production";
  port: number;
  host: string;
  /** Unset: embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Connections each process keeps to PostgreSQL (the pool's size). */
  databasePoolSize: number;
  publicUrl?: string;
  /** Key material for encrypting TOTP secrets; demo mode may keep a generated one in the database. */
  appSecret?: string;
  trustProxy: boolean;
  /** scrypt's cost, N = 2^scryptLogN, for new password hashes (a stored hash keeps its own). */
  scryptLogN: number;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  reseller2faDefault: boolean;
  bootstrapAdmin?: { email: string; password: string; name: string };
  supplierTimeoutMs: number;
  /** Calls one process has out at one supplier at once (SUPPLIER_CONCURRENCY). */
  supplierConcurrency: number;
  /**
   * The HTTP server's limits on a client (cli/serve.ts): the time from connecting (or from the
   * previous answer on a kept-alive connection) to a complete request head, and to a complete body.
   */
  http: { headersTimeoutMs: number; bodyTimeoutMs: number; keepAliveTimeoutMs: number };
  /** Reseller webhooks: the wait before each retry (seconds) and each attempt's time limit. */
  webhooks: { retryDelaysSec: number[]; timeoutMs: number };
  /** This instance runs the job queue too (off for HTTP-only instances beside `cli worker`). */
  runJobs: boolean;
  /** How often the operations watch (supplier balances, alerts) is queued, in seconds. */
  watchIntervalSeconds: number;
  /**
   * Jobs of one kind a process runs at once (JOB_CONCURRENCY); unset, each kind of process has its
   * own default (JOB_SLOTS).
   */
  jobConcurrency?: number;
  /** HTTP worker processes sharing the port (PostgreSQL only; PGlite keeps one). */
  workers: number;
  /** Demo mode fills an empty catalogue from the simulators. */
  seedDemoCatalogue: boolean;
  /** Reseller emails that also see hidden games (spec §2: two privileged accounts). */
  privilegedResellers: string[];
  /** The largest top-up, deduction or starting balance an operator may enter, in dollars ("100000"). */
  balanceMoveMax: string;
  /** Where uploaded images go: files under `dataDir/uploads` served by the app, or a bucket. */
  storage: { kind: "local" } | S3StorageConfig;
  /** The USD→SGD market rate source (Yahoo Finance chart API, external-apis.md §4). */
  fx: {
    mode: "simulator" | "live";
    baseUrl: string;
    /** How long a fetched market rate is served before the next page view refreshes it. */
    cacheSeconds: number;
  };
  /** HitPay payment requests (external-apis.md §3); in simulator mode key and salt are the simulator's. */
  hitpay: {
    mode: "simulator" | "live";
    baseUrl: string;
    apiKey: string;
    /** Signs and verifies webhooks; not the API key. */
    salt: string;
    /** The `payment_methods` of every payment request: HitPay codes, checked against its list. */
    paymentMethods: HitPayPaymentMethod[];
    /** Minutes each payment request takes payment for (`expires_after`), then it expires. */
    expiryMinutes: number;
  };
  /** Outgoing mail: SMTP, or in demo mode a sink that only records (Admin → Emails → Sent). */
  mail: {
    mode: "sink" | "smtp";
    smtpUrl?: string;
    from: string;
    /** The shared secret of POST /api/inbound-email; unset: that route refuses every message. */
    inboundSecret?: string;
  };
  /** Support links on the consumer pages. */
  contact: { whatsappUrl: string; telegramUrl: string };
  /**
   * GET /metrics: the bearer token it asks for; unset, it is open in demo mode and off (404) in
   * production.
   */
  metricsToken?: string;
  /**
   * When set, each process also serves /metrics, /healthz and /readyz alone on its own port:
   * METRICS_PORT for the first worker, + 1 for the next … (a scrape of the shared port reaches
   * one worker at random).
   */
  metricsPort?: number;
  /**
   * On SIGTERM: how long /readyz answers 503 before the server stops taking new connections, so a
   * load balancer stops sending first (then in-flight requests finish).
   */
  drainSeconds: number;
}

/**
 * The configuration: the app's, and each registered supplier's section under its vendor
 * (`config.moogold`, `config.elitedias`, …).
 */
export interface Config extends AppConfig, SupplierSections<Registered> {}

function describeIssues(
  error: z.ZodError,
  env: Record<string, string | undefined>,
  secrets: ReadonlySet<string>,
): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    const got = env[name];
    // SMTP_URL may carry the mail account's password.
    const shown = /SECRET|PASSWORD|KEY|SALT|TOKEN/.test(name) || name === "SMTP_URL" ||
        secrets.has(name)
      ? ""
      : got === undefined
      ? ""
      : ` (got '${got}')`;
    return `${name}: ${issue.message}${shown}`;
  });
}

type ParsedEnv = z.output<typeof AppEnvSchema>;

/** A variable as parsed, by a name known only at run time (a supplier's, or one of a list). */
function variable(e: ParsedEnv, name: string): string | undefined {
  return (e as unknown as Record<string, string | undefined>)[name];
}

/** Values anyone can read in this repository: the simulators' credentials, the demo passwords. */
function publishedValues(registrations: readonly AnySupplierRegistration[]): Set<string> {
  return new Set([
    HITPAY_SIMULATOR_CREDENTIALS.apiKey,
    HITPAY_SIMULATOR_CREDENTIALS.salt,
    ...registrations.flatMap((r) =>
      Object.values(r.simulator.credentials as Record<string, string>)
    ),
    ...PUBLISHED_PASSWORDS,
  ]);
}

/**
 * Why this environment, complete as it may be, would be unsafe to take real money with, one
 * sentence per problem naming its variable: a simulated outside service; no https PUBLIC_URL
 * (production builds every absolute link from it, never from a request's Host); a secret left at a
 * published demo value or a placeholder; the demo's contact details; HitPay's sandbox without
 * HITPAY_SANDBOX=1.
 */
function productionProblems(
  e: ParsedEnv,
  registrations: readonly AnySupplierRegistration[],
): string[] {
  const problems: string[] = [];
  const published = publishedValues(registrations);
  if (e.SCRYPT_LOG_N < OWASP_SCRYPT_LOG_N) {
    problems.push(
      `SCRYPT_LOG_N: must be at least ${OWASP_SCRYPT_LOG_N} when APP_MODE is production (got ${e.SCRYPT_LOG_N}; lower is for tests)`,
    );
  }
  const modes = [...registrations.map((r) => r.env.modeVariable), "HITPAY_MODE", "FX_MODE"];
  for (const name of modes) {
    if (variable(e, name) === "simulator") {
      problems.push(`${name}: simulator is not allowed when APP_MODE is production (set live)`);
    }
  }
  if (!e.PUBLIC_URL) {
    problems.push(
      "PUBLIC_URL: required when APP_MODE is production (the https:// address customers use)",
    );
  } else if (!e.PUBLIC_URL.startsWith("https://")) {
    problems.push(
      `PUBLIC_URL: must start with https:// when APP_MODE is production (got '${e.PUBLIC_URL}')`,
    );
  }
  // APP_SECRET and INBOUND_MAIL_SECRET are longer than any published value; see below for them.
  const credentials = [
    "HITPAY_API_KEY",
    "HITPAY_SALT",
    ...registrations.flatMap((r) => r.env.secrets),
    "ADMIN_PASSWORD",
  ];
  for (const name of credentials) {
    if (published.has(variable(e, name) ?? "")) {
      problems.push(
        `${name}: is a demo value published in this repository (a simulator's credential or a ` +
          "demo password); set your own",
      );
    }
  }
  for (const name of ["APP_SECRET", "INBOUND_MAIL_SECRET", "METRICS_TOKEN"] as const) {
    const value = e[name];
    const weakness = value === undefined ? null : secretWeakness(value);
    if (weakness) {
      problems.push(
        `${name}: ${weakness}; use random characters, e.g. from openssl rand -hex 32`,
      );
    }
  }
  const demoContacts = [
    ["MAIL_FROM", DEMO_DEFAULTS.mailFrom],
    ["WHATSAPP_URL", DEMO_DEFAULTS.whatsappUrl],
    ["TELEGRAM_URL", DEMO_DEFAULTS.telegramUrl],
  ] as const;
  for (const [name, demo] of demoContacts) {
    if (e[name] === demo) {
      problems.push(`${name}: is the demo's placeholder (${demo}); set your own`);
    }
  }
  for (const name of serviceUrls(registrations)) {
    const value = variable(e, name);
    if (value && !isPrivateChannel(value)) {
      problems.push(
        `${name}: must start with https:// when APP_MODE is production (got '${value}'): plain ` +
          "http would send the service's credentials and answers in clear",
      );
    }
  }
  if (e.HITPAY_BASE_URL && isHitPaySandbox(e.HITPAY_BASE_URL) && !e.HITPAY_SANDBOX) {
    problems.push(
      "HITPAY_BASE_URL: is HitPay's sandbox, which takes no real money; use " +
        `${HITPAY_PRODUCTION_URL} (the default in production), or set HITPAY_SANDBOX=1 to rehearse ` +
        "with sandbox keys",
    );
  }
  return problems;
}

/** Reads and validates configuration; a bad value throws ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return loadConfigWith(REGISTERED, env);
}

/**
 * `loadConfig` with the suppliers of `registrations` (production's are REGISTERED; a test may add
 * one of its own): their variables, problems and sections.
 */
export function loadConfigWith<R extends readonly AnySupplierRegistration[]>(
  registrations: R,
  env: Record<string, string | undefined>,
): AppConfig & SupplierSections<R> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const secrets = new Set(registrations.flatMap((r) => r.env.secrets));
  const parsed = envSchemaFor(registrations).safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, cleaned, secrets));
  const e = parsed.data as unknown as ParsedEnv;
  const production = e.APP_MODE === "production";
  const published = publishedValues(registrations);
  const problems: string[] = [];
  if (production && !e.APP_SECRET) {
    problems.push(
      "APP_SECRET: required when APP_MODE is production (32+ random characters)",
    );
  }
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    problems.push("ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither");
  }
  const sections: Record<string, SupplierSection> = {};
  for (const r of registrations) {
    const mode = (variable(e, r.env.modeVariable) as SupplierSection["mode"]) ??
      (production ? "live" : "simulator");
    const section = r.env.section(parsed.data, mode);
    problems.push(...r.env.problems(section));
    sections[r.vendor] = section;
  }
  const hitpayMode = e.HITPAY_MODE ?? (production ? "live" : "simulator");
  if (hitpayMode === "live" && (!e.HITPAY_API_KEY || !e.HITPAY_SALT)) {
    problems.push("HITPAY_API_KEY and HITPAY_SALT: required when HitPay is live");
  }
  // Production takes real payments unless told otherwise; a demo trying live HitPay gets its sandbox.
  const hitpayBaseUrl =
    (e.HITPAY_BASE_URL ?? (production ? HITPAY_PRODUCTION_URL : HITPAY_SANDBOX_URL))
      .replace(/\/+$/, "");
  const sandboxMissing = e.HITPAY_PAYMENT_METHODS.filter((code) =>
    !HITPAY_SANDBOX_PAYMENT_METHOD_CODES.includes(code)
  );
  if (hitpayMode === "live" && isHitPaySandbox(hitpayBaseUrl) && sandboxMissing.length) {
    problems.push(
      `HITPAY_PAYMENT_METHODS: HitPay's sandbox refuses ${sandboxMissing.join(", ")} (it offers ` +
        `${
          HITPAY_SANDBOX_PAYMENT_METHOD_CODES.join(", ")
        }); set HITPAY_PAYMENT_METHODS to some of those`,
    );
  }
  const missingProduction = (["SMTP_URL", "MAIL_FROM", "WHATSAPP_URL", "TELEGRAM_URL"] as const)
    .filter((name) => !e[name]);
  if (production && missingProduction.length) {
    problems.push(`${missingProduction.join(", ")}: required when APP_MODE is production`);
  }
  if (production) problems.push(...productionProblems(e, registrations));
  else {
    // The operator who forgot APP_MODE: live keys would sell from real balances to the demo's
    // published accounts, with /metrics open and cookies without Secure. HitPay's sandbox keys are
    // pretend money, so a demo may try HitPay's sandbox.
    const hitpaySandbox = hitpayMode === "live" && isHitPaySandbox(hitpayBaseUrl);
    const set = (name: string) => {
      const value = variable(e, name);
      return value !== undefined && !published.has(value);
    };
    const live = [
      ...registrations.flatMap((r) => r.env.secrets).filter(set),
      ...(["HITPAY_API_KEY", "HITPAY_SALT"] as const).filter((name) => set(name) && !hitpaySandbox),
      ...registrations.map((r) => r.env.modeVariable)
        .filter((name) => variable(e, name) === "live"),
    ];
    if (live.length) {
      problems.push(
        `APP_MODE: is demo (the default) but live services are configured (${live.join(", ")}): ` +
          "set APP_MODE=production to sell with them, or unset them to run the demo on its " +
          "simulators",
      );
    }
  }
  const s3 = e.STORAGE === "s3";
  const missingS3 = (
    ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const
  ).filter((name) => !e[name]);
  if (s3 && missingS3.length) {
    problems.push(`${missingS3.join(", ")}: required when STORAGE is s3`);
  }
  if (problems.length) throw new ConfigError(problems);

  const config: AppConfig = {
    mode: e.APP_MODE,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    appSecret: e.APP_SECRET,
    trustProxy: e.TRUST_PROXY,
    scryptLogN: e.SCRYPT_LOG_N,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    reseller2faDefault: e.RESELLER_2FA_DEFAULT,
    bootstrapAdmin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD
      ? {
        email: e.ADMIN_EMAIL.toLowerCase(),
        password: e.ADMIN_PASSWORD,
        name: e.ADMIN_NAME ?? "Admin",
      }
      : undefined,
    supplierTimeoutMs: e.SUPPLIER_TIMEOUT_MS,
    supplierConcurrency: e.SUPPLIER_CONCURRENCY,
    http: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: e.BODY_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    seedDemoCatalogue: e.SEED_DEMO_CATALOGUE,
    runJobs: e.RUN_JOBS,
    watchIntervalSeconds: e.WATCH_INTERVAL_SECONDS,
    jobConcurrency: e.JOB_CONCURRENCY,
    webhooks: {
      retryDelaysSec: e.WEBHOOK_RETRY_DELAYS.split(",").map(Number),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    // Sharing a port between processes (SO_REUSEPORT) spreads connections on Linux only.
    workers: e.DATABASE_URL
      ? e.WORKERS ?? (Deno.build.os === "linux" ? navigator.hardwareConcurrency : 1)
      : 1,
    privilegedResellers: e.PRIVILEGED_RESELLERS.split(",").map((v) => v.trim().toLowerCase())
      .filter(Boolean),
    balanceMoveMax: e.BALANCE_MOVE_MAX,
    // The non-null assertions are the missingS3 check above.
    storage: s3
      ? {
        kind: "s3",
        bucket: e.S3_BUCKET!,
        region: e.S3_REGION!,
        endpoint: e.S3_ENDPOINT,
        accessKeyId: e.S3_ACCESS_KEY_ID!,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        publicBaseUrl: e.S3_PUBLIC_BASE_URL?.replace(/\/+$/, ""),
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      }
      : { kind: "local" },
    fx: {
      mode: e.FX_MODE ?? (production ? "live" : "simulator"),
      baseUrl: e.FX_BASE_URL.replace(/\/+$/, ""),
      cacheSeconds: e.FX_CACHE_SECONDS,
    },
    hitpay: hitpayMode === "live"
      ? {
        mode: "live",
        baseUrl: hitpayBaseUrl,
        apiKey: e.HITPAY_API_KEY!,
        salt: e.HITPAY_SALT!,
        paymentMethods: e.HITPAY_PAYMENT_METHODS,
        expiryMinutes: e.HITPAY_PAYMENT_EXPIRY_MINUTES,
      }
      : {
        mode: "simulator",
        baseUrl: hitpayBaseUrl,
        apiKey: e.HITPAY_API_KEY ?? HITPAY_SIMULATOR_CREDENTIALS.apiKey,
        salt: e.HITPAY_SALT ?? HITPAY_SIMULATOR_CREDENTIALS.salt,
        paymentMethods: e.HITPAY_PAYMENT_METHODS,
        expiryMinutes: e.HITPAY_PAYMENT_EXPIRY_MINUTES,
      },
    mail: {
      mode: e.SMTP_URL ? "smtp" : "sink",
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? DEMO_DEFAULTS.mailFrom,
      inboundSecret: e.INBOUND_MAIL_SECRET,
    },
    contact: {
      whatsappUrl: e.WHATSAPP_URL ?? DEMO_DEFAULTS.whatsappUrl,
      telegramUrl: e.TELEGRAM_URL ?? DEMO_DEFAULTS.telegramUrl,
    },
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    drainSeconds: e.DRAIN_SECONDS ?? (production ? 5 : 0),
  };
  return { ...config, ...sections } as AppConfig & SupplierSections<R>;
}

const CONFIG_KEY = Symbol.for("topup.config");

/** The process-wide configuration, read from the environment once. */
/** How this process opens its database: the URL (or PGlite's folder) and the pool's size. */
export function dbOptionsOf(config: Config): DbOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    maxConnections: config.databasePoolSize,
  };
}

export function getConfig(): Config {
  const g = globalThis as { [CONFIG_KEY]?: Config };
  g[CONFIG_KEY] ??= loadConfig(Deno.env.toObject());
  return g[CONFIG_KEY];
}

const ORIGIN_KEY = Symbol.for("topup.publicOrigin");

/**
 * Resolves this site's absolute base URL once, as the process starts: PUBLIC_URL, which production
 * always has, else the URL this app listens on (`internalUrl`). On globalThis, as the CLI and the
 * server bundle each carry a copy of this module.
 */
export function resolvePublicOrigin(config: Pick<Config, "publicUrl">, internalUrl: string): void {
  (globalThis as { [ORIGIN_KEY]?: string })[ORIGIN_KEY] = config.publicUrl ?? internalUrl;
}

/**
 * This site's absolute base URL, the one home of every absolute link the app hands out (payment
 * redirects and webhooks, mail, uploads, the sitemap, the OpenAPI servers); a request's Host is
 * never echoed there.
 */
export function publicOrigin(): string {
  const origin = (globalThis as { [ORIGIN_KEY]?: string })[ORIGIN_KEY];
  if (origin === undefined) {
    throw new Error("The public origin is not resolved: the app has not started");
  }
  return origin;
}
