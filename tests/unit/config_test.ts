import assert from "node:assert/strict";
import {
  ConfigError,
  dbOptionsOf,
  DEMO_PASSWORDS,
  HITPAY_SIMULATOR_CREDENTIALS,
  loadConfig,
  SIMULATOR_CREDENTIALS,
} from "../../src/config.ts";

Deno.test("[config] no configuration is a demo on PGlite in ./data, port 8000", () => {
  const c = loadConfig({});
  assert.equal(c.mode, "demo");
  assert.equal(c.port, 8000);
  assert.equal(c.dataDir, "./data");
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.moogold.mode, "simulator");
  assert.equal(c.elitedias.mode, "simulator");
  assert.equal(c.scryptLogN, 17, "passwords hashed at OWASP's scrypt cost");
});

Deno.test("[config] each process keeps 10 PostgreSQL connections unless DATABASE_POOL_SIZE says", () => {
  const url = "postgres://app@db.example/shop";
  assert.deepEqual(dbOptionsOf(loadConfig({ DATABASE_URL: url })), {
    databaseUrl: url,
    dataDir: "./data",
    maxConnections: 10,
  });
  const sized = loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: "4" });
  assert.equal(dbOptionsOf(sized).maxConnections, 4);
  assert.throws(
    () => loadConfig({ DATABASE_POOL_SIZE: "0" }),
    /DATABASE_POOL_SIZE: .*\(got '0'\)/,
  );
});

Deno.test("[config] a bad value stops start-up with a message naming the variable", () => {
  assert.throws(() => loadConfig({ PORT: "eighty" }), (e: Error) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /PORT: .*\(got 'eighty'\)/);
    return true;
  });
  assert.throws(
    () => loadConfig({ DATABASE_URL: "mysql://x" }),
    /DATABASE_URL: expected a URL starting with postgres:\/\//,
  );
  assert.throws(
    () => loadConfig({ APP_MODE: "prod" }),
    /APP_MODE: expected 'demo' or 'production'/,
  );
});

/** A production environment with nothing unsafe in it: every service live, secrets of its own. */
const SAFE_PRODUCTION = {
  APP_MODE: "production",
  PUBLIC_URL: "https://shop.example.com",
  APP_SECRET: "3f9c2a71e8d4b6059a1c7e2f8b3d4a6c",
  MOOGOLD_PARTNER_ID: "partner-4821",
  MOOGOLD_SECRET_KEY: "mg-secret-7f3a9c2e",
  ELITEDIAS_API_KEY: "ed-key-5b8d1f4a",
  HITPAY_API_KEY: "live-key",
  HITPAY_SALT: "live-salt",
  SMTP_URL: "smtps://mailer:pw@smtp.example.com:465",
  MAIL_FROM: "TopUp <receipts@example.com>",
  WHATSAPP_URL: "https://wa.me/6591234567",
  TELEGRAM_URL: "https://t.me/topup",
  INBOUND_MAIL_SECRET: "d41c8e2a9b7f60354e1a2c9d8b7f6e50",
};

/** The problems loadConfig refuses `env` with, one line each. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.message.split("\n").slice(1), error.problems.map((p) => `  ${p}`));
    return error.problems;
  }
  return [];
}

Deno.test("[config] production needs APP_SECRET, live credentials, SMTP and contact links", () => {
  const problems = problemsOf({ APP_MODE: "production" });
  for (
    const line of [
      /^APP_SECRET: required/,
      /^MOOGOLD_PARTNER_ID and MOOGOLD_SECRET_KEY/,
      /^ELITEDIAS_API_KEY/,
      /^HITPAY_API_KEY and HITPAY_SALT: required when HitPay is live/,
      /^SMTP_URL, MAIL_FROM, WHATSAPP_URL, TELEGRAM_URL: required when APP_MODE is production/,
      /^PUBLIC_URL: required when APP_MODE is production/,
    ]
  ) {
    assert.equal(problems.filter((p) => line.test(p)).length, 1, `${line} in ${problems}`);
  }
  const ok = loadConfig(SAFE_PRODUCTION);
  assert.equal(ok.mode, "production");
  assert.equal(ok.publicUrl, "https://shop.example.com");
  assert.deepEqual(
    [ok.moogold.mode, ok.elitedias.mode, ok.fx.mode, ok.hitpay.mode],
    ["live", "live", "live", "live"],
  );
  assert.deepEqual(ok.hitpay, {
    mode: "live",
    baseUrl: "https://api.hit-pay.com/v1",
    apiKey: "live-key",
    salt: "live-salt",
    paymentMethods: ["paynow_online", "grabpay_direct", "shopee_pay", "atome"],
    expiryMinutes: 30,
  });
  assert.deepEqual(ok.mail, {
    mode: "smtp",
    smtpUrl: "smtps://mailer:pw@smtp.example.com:465",
    from: "TopUp <receipts@example.com>",
    inboundSecret: "d41c8e2a9b7f60354e1a2c9d8b7f6e50",
  });
});

Deno.test("[config] production refuses each unsafe setting with one line naming it", () => {
  const demoAdmin = { ADMIN_EMAIL: "ops@example.com", ADMIN_PASSWORD: DEMO_PASSWORDS.admin };
  const cases: [Record<string, string | undefined>, RegExp][] = [
    [{ MOOGOLD_MODE: "simulator" }, /^MOOGOLD_MODE: simulator is not allowed/],
    [{ ELITEDIAS_MODE: "simulator" }, /^ELITEDIAS_MODE: simulator is not allowed/],
    [{ HITPAY_MODE: "simulator" }, /^HITPAY_MODE: simulator is not allowed/],
    [{ FX_MODE: "simulator" }, /^FX_MODE: simulator is not allowed/],
    [{ PUBLIC_URL: undefined }, /^PUBLIC_URL: required when APP_MODE is production/],
    [
      { PUBLIC_URL: "http://shop.example.com" },
      /^PUBLIC_URL: must start with https:\/\/ .*\(got 'http:\/\/shop\.example\.com'\)/,
    ],
    [{ APP_SECRET: undefined }, /^APP_SECRET: required when APP_MODE is production/],
    [{ SCRYPT_LOG_N: "12" }, /^SCRYPT_LOG_N: must be at least 17 when APP_MODE is production/],
    [{ APP_SECRET: "z".repeat(32) }, /^APP_SECRET: repeats itself; use random characters/],
    [{ INBOUND_MAIL_SECRET: "0".repeat(24) }, /^INBOUND_MAIL_SECRET: repeats itself/],
    [{ HITPAY_API_KEY: HITPAY_SIMULATOR_CREDENTIALS.apiKey }, /^HITPAY_API_KEY: is a demo value/],
    [{ HITPAY_SALT: HITPAY_SIMULATOR_CREDENTIALS.salt }, /^HITPAY_SALT: is a demo value/],
    [
      { MOOGOLD_PARTNER_ID: SIMULATOR_CREDENTIALS.moogold.partnerId },
      /^MOOGOLD_PARTNER_ID: is a demo value/,
    ],
    [
      { MOOGOLD_SECRET_KEY: SIMULATOR_CREDENTIALS.moogold.secretKey },
      /^MOOGOLD_SECRET_KEY: is a demo value/,
    ],
    [
      { ELITEDIAS_API_KEY: SIMULATOR_CREDENTIALS.elitedias.apiKey },
      /^ELITEDIAS_API_KEY: is a demo value/,
    ],
    [demoAdmin, /^ADMIN_PASSWORD: is a demo value/],
    [{ MAIL_FROM: "TopUp <receipts@topup.test>" }, /^MAIL_FROM: is the demo's placeholder/],
    [{ WHATSAPP_URL: "https://wa.me/6500000000" }, /^WHATSAPP_URL: is the demo's placeholder/],
    [{ TELEGRAM_URL: "https://t.me/topup_demo" }, /^TELEGRAM_URL: is the demo's placeholder/],
    [
      {
        HITPAY_BASE_URL: "https://api.sandbox.hit-pay.com/v1",
        HITPAY_PAYMENT_METHODS: "paynow_online,atome",
      },
      /^HITPAY_BASE_URL: is HitPay's sandbox, which takes no real money; use https:\/\/api\.hit-pay\.com\/v1/,
    ],
  ];
  for (const [unsafe, line] of cases) {
    const problems = problemsOf({ ...SAFE_PRODUCTION, ...unsafe });
    assert.equal(problems.length, 1, `${JSON.stringify(unsafe)}: ${problems.join(" | ")}`);
    assert.match(problems[0], line);
    // Demo mode takes the same setting.
    assert.deepEqual(problemsOf({ ...unsafe, APP_MODE: "demo" }), []);
  }
});

Deno.test("[config] live credentials without APP_MODE stop the demo, saying to set it", () => {
  const live = {
    MOOGOLD_PARTNER_ID: "partner-4821",
    MOOGOLD_SECRET_KEY: "mg-secret-7f3a9c2e",
    ELITEDIAS_API_KEY: "ed-key-5b8d1f4a",
    HITPAY_MODE: "live",
    HITPAY_BASE_URL: "https://api.hit-pay.com/v1",
    HITPAY_API_KEY: "live-key",
    HITPAY_SALT: "live-salt",
  };
  assert.deepEqual(problemsOf(live), [
    "APP_MODE: is demo (the default) but live services are configured (MOOGOLD_PARTNER_ID, " +
    "MOOGOLD_SECRET_KEY, ELITEDIAS_API_KEY, HITPAY_API_KEY, HITPAY_SALT): set " +
    "APP_MODE=production to sell with them, or unset them to run the demo on its simulators",
  ]);
  assert.match(
    problemsOf({ ELITEDIAS_MODE: "live", ELITEDIAS_API_KEY: "ed-key-5b8d1f4a" })[0],
    /^APP_MODE: is demo \(the default\) but live services are configured \(ELITEDIAS_API_KEY, ELITEDIAS_MODE\)/,
  );
  // HitPay's sandbox takes no real money: a demo may try it with sandbox keys.
  const sandbox = {
    HITPAY_MODE: "live",
    HITPAY_API_KEY: "sandbox-key",
    HITPAY_SALT: "sandbox-salt",
    HITPAY_PAYMENT_METHODS: "paynow_online",
  };
  assert.deepEqual(problemsOf(sandbox), []);
  assert.equal(loadConfig(sandbox).hitpay.baseUrl, "https://api.sandbox.hit-pay.com/v1");
});

Deno.test("[config] HitPay's sandbox in production only with HITPAY_SANDBOX=1", () => {
  const sandbox = {
    ...SAFE_PRODUCTION,
    HITPAY_BASE_URL: "https://api.sandbox.hit-pay.com/v1/",
    HITPAY_PAYMENT_METHODS: "paynow_online,atome",
  };
  assert.equal(problemsOf(sandbox).length, 1);
  const rehearsal = loadConfig({ ...sandbox, HITPAY_SANDBOX: "1" });
  assert.equal(rehearsal.hitpay.baseUrl, "https://api.sandbox.hit-pay.com/v1");
  assert.equal(
    loadConfig({ ...SAFE_PRODUCTION, HITPAY_SANDBOX: "1" }).hitpay.baseUrl,
    "https://api.hit-pay.com/v1",
    "the flag allows the sandbox, it does not choose it",
  );
});

Deno.test("[config] production takes random secrets, not the placeholders people leave", () => {
  const placeholders: [string, RegExp][] = [
    ["changeme-changeme-changeme-changeme", /looks like a placeholder \(it contains "change"\)/],
    ["your-app-secret-goes-here-please-change", /looks like a placeholder/],
    ["0123456789012345678901234567890123", /repeats itself/],
    ["abcdefghijklmnopqrstuvwxyz0123456789", /runs in sequence/],
    ["qwertyuiopasdfghjklzxcvbnm1234567890", /looks like a placeholder \(it contains "qwert"\)/],
    ["abcabdabcabdabcabdabcabdabcabdabcabd", /repeats itself/],
  ];
  for (const name of ["APP_SECRET", "METRICS_TOKEN", "INBOUND_MAIL_SECRET"]) {
    for (const [value, why] of placeholders) {
      const problems = problemsOf({ ...SAFE_PRODUCTION, [name]: value });
      assert.equal(problems.length, 1, `${name}=${value}: ${problems.join(" | ")}`);
      assert.match(problems[0], new RegExp(`^${name}: ${why.source}`));
      assert.doesNotMatch(problems[0], new RegExp(value), "the secret itself is not shown");
    }
  }
  // What `openssl rand -hex 32`, `-base64 32` and a UUID give is taken.
  for (const value of [randomHex(32), randomBase64(32), crypto.randomUUID()]) {
    assert.deepEqual(problemsOf({ ...SAFE_PRODUCTION, APP_SECRET: value }), [], value);
  }
});

function randomHex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

function randomBase64(bytes: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))));
}

Deno.test("[config] HitPay's sandbox is known by its host however it is written", () => {
  for (
    const url of [
      "https://api.sandbox.hit-pay.com./v1",
      "https://API.SANDBOX.HIT-PAY.COM/v1",
      "https://api.sandbox.hit-pay.com../v1/",
    ]
  ) {
    const problems = problemsOf({ ...SAFE_PRODUCTION, HITPAY_BASE_URL: url });
    assert.ok(
      problems.some((p) => p.startsWith("HITPAY_BASE_URL: is HitPay's sandbox")),
      `${url}: ${problems.join(" | ")}`,
    );
  }
});

Deno.test("[config] production calls its outside services over https, or on this machine", () => {
  const services = [
    "HITPAY_BASE_URL",
    "MOOGOLD_BASE_URL",
    "ELITEDIAS_BASE_URL",
    "ELITEDIAS_CHECKID_URL",
    "FX_BASE_URL",
    "S3_ENDPOINT",
  ];
  for (const name of services) {
    const plain = `http://${name.toLowerCase().replaceAll("_", "-")}.example.com/api`;
    assert.deepEqual(problemsOf({ ...SAFE_PRODUCTION, [name]: plain }), [
      `${name}: must start with https:// when APP_MODE is production (got '${plain}'): plain ` +
      "http would send the service's credentials and answers in clear",
    ]);
    for (
      const local of ["http://127.0.0.1:9443/api", "http://localhost./api", "http://[::1]/api"]
    ) {
      assert.deepEqual(problemsOf({ ...SAFE_PRODUCTION, [name]: local }), [], `${name}=${local}`);
    }
    assert.deepEqual(problemsOf({ [name]: plain }), [], "the demo takes plain http");
  }
});

Deno.test("[config] methods HitPay's sandbox refuses are named before a buyer meets its 422", () => {
  const rehearsal = {
    ...SAFE_PRODUCTION,
    HITPAY_BASE_URL: "https://api.sandbox.hit-pay.com/v1",
    HITPAY_SANDBOX: "1",
  };
  assert.deepEqual(problemsOf(rehearsal), [
    "HITPAY_PAYMENT_METHODS: HitPay's sandbox refuses grabpay_direct, shopee_pay (it offers " +
    "card, paynow_online, atome, atome_qr); set HITPAY_PAYMENT_METHODS to some of those",
  ]);
  assert.deepEqual(problemsOf({ ...rehearsal, HITPAY_PAYMENT_METHODS: "paynow_online,atome" }), []);
});

Deno.test("[config] a payment request expires after 30 minutes unless told", () => {
  assert.equal(loadConfig({}).hitpay.expiryMinutes, 30);
  assert.equal(loadConfig({ HITPAY_PAYMENT_EXPIRY_MINUTES: "120" }).hitpay.expiryMinutes, 120);
  assert.throws(
    () => loadConfig({ HITPAY_PAYMENT_EXPIRY_MINUTES: "1" }),
    /HITPAY_PAYMENT_EXPIRY_MINUTES: /,
  );
});

Deno.test("[config] a short INBOUND_MAIL_SECRET is refused without showing it", () => {
  assert.throws(() => loadConfig({ INBOUND_MAIL_SECRET: "short-secret" }), (e: Error) => {
    assert.match(e.message, /INBOUND_MAIL_SECRET: must be at least 24 characters/);
    assert.doesNotMatch(e.message, /short-secret/);
    return true;
  });
  assert.equal(loadConfig({}).mail.inboundSecret, undefined);
});

Deno.test("[config] demo mode pays in the HitPay simulator and mails to the sink", () => {
  const c = loadConfig({});
  assert.deepEqual(c.hitpay, {
    mode: "simulator",
    baseUrl: "https://api.sandbox.hit-pay.com/v1",
    ...HITPAY_SIMULATOR_CREDENTIALS,
    paymentMethods: ["paynow_online", "grabpay_direct", "shopee_pay", "atome"],
    expiryMinutes: 30,
  });
  assert.equal(c.mail.mode, "sink");
  assert.equal(c.mail.smtpUrl, undefined);
  assert.match(c.contact.whatsappUrl, /^https:\/\/wa\.me\//);
  assert.match(c.contact.telegramUrl, /^https:\/\/t\.me\//);
  assert.throws(() => loadConfig({ HITPAY_MODE: "live" }), /HITPAY_API_KEY and HITPAY_SALT/);
});

Deno.test("[config] the SMTP password is never echoed in configuration errors", () => {
  assert.throws(
    () => loadConfig({ SMTP_URL: "http://user:hunter2@mail.example.com" }),
    (e: Error) => {
      assert.match(e.message, /SMTP_URL: expected a URL starting with smtp:\/\/ or smtps:\/\//);
      assert.doesNotMatch(e.message, /hunter2/);
      return true;
    },
  );
});

Deno.test("[config] secrets are never echoed in configuration errors", () => {
  assert.throws(() => loadConfig({ APP_SECRET: "short-secret" }), (e: Error) => {
    assert.match(e.message, /APP_SECRET: must be at least 32 characters/);
    assert.doesNotMatch(e.message, /short-secret/);
    return true;
  });
});

Deno.test("[config] ADMIN_EMAIL and ADMIN_PASSWORD come together; the email is lowercased", () => {
  assert.throws(() => loadConfig({ ADMIN_EMAIL: "boss@example.com" }), /set both or neither/);
  const c = loadConfig({ ADMIN_EMAIL: "Boss@Example.com", ADMIN_PASSWORD: "a long password" });
  assert.deepEqual(c.bootstrapAdmin, {
    email: "boss@example.com",
    password: "a long password",
    name: "Admin",
  });
});

Deno.test("[config] WORKERS: one per core on PostgreSQL by default, always one on PGlite", () => {
  const pg = "postgres://app@db:5432/topup";
  assert.equal(loadConfig({ DATABASE_URL: pg }).workers, navigator.hardwareConcurrency);
  assert.equal(loadConfig({ DATABASE_URL: pg, WORKERS: "1" }).workers, 1);
  assert.equal(loadConfig({ DATABASE_URL: pg, WORKERS: "3" }).workers, 3);
  assert.equal(loadConfig({ WORKERS: "4" }).workers, 1, "PGlite belongs to one process");
  assert.throws(() => loadConfig({ DATABASE_URL: pg, WORKERS: "0" }), /WORKERS: /);
});

Deno.test("[config] HITPAY_PAYMENT_METHODS takes HitPay's codes and refuses any it does not know", () => {
  assert.deepEqual(
    loadConfig({ HITPAY_PAYMENT_METHODS: "card, paynow_online" }).hitpay.paymentMethods,
    ["card", "paynow_online"],
  );
  assert.deepEqual(
    loadConfig({ HITPAY_PAYMENT_METHODS: "shopee_pay_later,shopback" }).hitpay.paymentMethods,
    ["shopee_pay_later", "shopback"],
  );
  for (const unknown of ["grabpay", "shopback_paylater", "PAYNOW_ONLINE"]) {
    assert.throws(
      () => loadConfig({ HITPAY_PAYMENT_METHODS: `paynow_online,${unknown}` }),
      new RegExp(`HITPAY_PAYMENT_METHODS: '${unknown}' is not a HitPay payment method code`),
    );
  }
  assert.throws(
    () => loadConfig({ HITPAY_PAYMENT_METHODS: "paynow_online,,atome" }),
    /HITPAY_PAYMENT_METHODS: '' is not a HitPay payment method code/,
  );
});

Deno.test("[config] a process has at most 200 calls out at one supplier unless SUPPLIER_CONCURRENCY says", () => {
  assert.equal(loadConfig({}).supplierConcurrency, 200);
  assert.equal(loadConfig({ SUPPLIER_CONCURRENCY: "20" }).supplierConcurrency, 20);
  assert.throws(() => loadConfig({ SUPPLIER_CONCURRENCY: "0" }), ConfigError);
});
