import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../src/config.ts";

Deno.test("[config] no configuration is a demo on PGlite in ./data, port 8000", () => {
  const c = loadConfig({});
  assert.equal(c.mode, "demo");
  assert.equal(c.port, 8000);
  assert.equal(c.dataDir, "./data");
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.moogold.mode, "simulator");
  assert.equal(c.elitedias.mode, "simulator");
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

Deno.test("[config] production needs APP_SECRET and live supplier credentials", () => {
  assert.throws(() => loadConfig({ APP_MODE: "production" }), (e: Error) => {
    assert.match(e.message, /APP_SECRET: required/);
    assert.match(e.message, /MOOGOLD_PARTNER_ID and MOOGOLD_SECRET_KEY/);
    assert.match(e.message, /ELITEDIAS_API_KEY/);
    return true;
  });
  const ok = loadConfig({
    APP_MODE: "production",
    APP_SECRET: "x".repeat(32),
    MOOGOLD_MODE: "simulator",
    ELITEDIAS_MODE: "simulator",
  });
  assert.equal(ok.mode, "production");
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
