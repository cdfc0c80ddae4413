import assert from "node:assert/strict";
import { TestClient } from "./client.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN, DEMO_RESELLER } from "../../src/domain/auth/bootstrap.ts";

/** Signs the demo admin in (enrolling on first use) and returns the client. */
export async function signInDemoAdmin(base: string): Promise<TestClient> {
  const client = new TestClient(base);
  const login = await client.post("/api/login_admin", {
    username: DEMO_ADMIN.email,
    password: DEMO_ADMIN.password,
  });
  assert.equal(login.status, 202, `demo admin must be new to this server: ${login.text}`);
  const verify = await client.post("/api/verify-totp", {
    code: generateTotpCode(login.json.secret),
  });
  assert.equal(verify.status, 200, verify.text);
  return client;
}

/** Signs the demo reseller in (no two-factor in the demo) and returns the client. */
export async function signInDemoReseller(base: string): Promise<TestClient> {
  const client = new TestClient(base);
  const login = await client.post("/api/login_reseller", {
    username: DEMO_RESELLER.email,
    password: DEMO_RESELLER.password,
  });
  assert.equal(login.status, 200, login.text);
  return client;
}

/**
 * Pulls a lever of the simulators mounted on the test server (demo only); `knobs` go with
 * "setKnobs" (latencyMs, completeAfterMs, …).
 */
export async function simControl(
  base: string,
  target: "moogold" | "elitedias",
  action: string,
  args: unknown[] = [],
  knobs?: Record<string, unknown>,
): Promise<unknown> {
  const r = await fetch(new URL("/__sim/control", base), {
    method: "POST",
    body: JSON.stringify({ target, action, args, knobs }),
  });
  assert.equal(r.status, 200, await r.clone().text());
  return (await r.json()).result;
}

/**
 * Signs an admin in, enrolling their authenticator on first use; returns the client and secret.
 * A code is accepted once, so a second sign-in of the same admin passes `step` 1 (the next code,
 * inside the ±1 step window) or -1.
 */
export async function signInAdmin(
  base: string,
  email: string,
  password: string,
  secret?: string,
  step = 0,
): Promise<{ client: TestClient; secret: string }> {
  const client = new TestClient(base);
  const login = await client.post("/api/login_admin", { username: email, password });
  assert.ok([200, 202].includes(login.status), login.text);
  const totp = secret ?? login.json.secret;
  assert.ok(totp, `no enrolment secret for ${email}: ${login.text}`);
  const verify = await client.post("/api/verify-totp", {
    code: generateTotpCode(totp, Date.now() + step * 30_000),
  });
  assert.equal(verify.status, 200, verify.text);
  return { client, secret: totp };
}
