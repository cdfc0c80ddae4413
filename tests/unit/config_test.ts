import assert from "node:assert/strict";
import {
  ConfigError,
  dbOptionsOf,
  HITPAY_SIMULATOR_CREDENTIALS,
  loadConfig,
} from "../../src/config.ts";

Deno.test("[config] no configuration is a demo on PGlite in ./data, port 8000", () => {
  const c = loadConfig({});
  assert.equal(c.mode, "demo");
  assert.equal(c.port, 8000);
  assert.equal(c.dataDir, "./data");
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.moogold.mode, "simulator");
  assert.equal(c.elitedias.mode, "simulator");
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

Deno.test("[config] production needs APP_SECRET, live credentials, SMTP and contact links", () => {
  assert.throws(() => loadConfig({ APP_MODE: "production" }), (e: Error) => {
    assert.match(e.message, /APP_SECRET: required/);
    assert.match(e.message, /MOOGOLD_PARTNER_ID and MOOGOLD_SECRET_KEY/);
    assert.match(e.message, /ELITEDIAS_API_KEY/);
    assert.match(e.message, /HITPAY_API_KEY and HITPAY_SALT: required when HitPay is live/);
    assert.match(
      e.message,
      /SMTP_URL, MAIL_FROM, WHATSAPP_URL, TELEGRAM_URL: required when APP_MODE is production/,
    );
    return true;
  });
  const ok = loadConfig({
    APP_MODE: "production",
    APP_SECRET: "x".repeat(32),
    MOOGOLD_MODE: "simulator",
    ELITEDIAS_MODE: "simulator",
    HITPAY_API_KEY: "live-key",
    HITPAY_SALT: "live-salt",
    SMTP_URL: "smtps://mailer:pw@smtp.example.com:465",
    MAIL_FROM: "TopUp <receipts@example.com>",
    WHATSAPP_URL: "https://wa.me/6591234567",
    TELEGRAM_URL: "https://t.me/topup",
    INBOUND_MAIL_SECRET: "inbound-secret-0123456789abcdef",
  });
  assert.equal(ok.mode, "production");
  assert.deepEqual(ok.hitpay, {
    mode: "live",
    baseUrl: "https://api.sandbox.hit-pay.com/v1",
    apiKey: "live-key",
    salt: "live-salt",
    paymentMethods: ["paynow_online", "grabpay_direct", "shopee_pay", "atome"],
  });
  assert.deepEqual(ok.mail, {
    mode: "smtp",
    smtpUrl: "smtps://mailer:pw@smtp.example.com:465",
    from: "TopUp <receipts@example.com>",
    inboundSecret: "inbound-secret-0123456789abcdef",
  });
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
