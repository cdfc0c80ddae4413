import assert from "node:assert/strict";
import { generateTotpCode, generateTotpSecret, matchTotpStep } from "../../src/domain/auth/totp.ts";
import { hashPassword, verifyPassword } from "../../src/domain/auth/passwords.ts";
import { getConfig } from "../../src/config.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import { isAdminRank } from "../../src/domain/auth/users.ts";
import { knownDeviceId, rememberDevice } from "../../src/domain/auth/devices.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 15);

Deno.test("[totp] a code matches its own 30 s step and one step either side, no further", () => {
  const secret = generateTotpSecret();
  const step = Math.floor(T0 / 30_000);
  assert.equal(matchTotpStep(secret, generateTotpCode(secret, T0), T0), step);
  assert.equal(matchTotpStep(secret, generateTotpCode(secret, T0 - 30_000), T0), step - 1);
  assert.equal(matchTotpStep(secret, generateTotpCode(secret, T0 + 30_000), T0), step + 1);
  assert.equal(matchTotpStep(secret, generateTotpCode(secret, T0 - 90_000), T0), null);
});

Deno.test("[totp] anything but six digits never matches", () => {
  const secret = generateTotpSecret();
  for (const bad of ["", "12345", "1234567", "abcdef", " 123456"]) {
    assert.equal(matchTotpStep(secret, bad, T0), null, bad);
  }
});

Deno.test("[totp] secrets are 160 random bits, different every time", () => {
  const a = generateTotpSecret();
  assert.match(a, /^[A-Z2-7]{32}$/);
  assert.notEqual(a, generateTotpSecret());
});

Deno.test("[passwords] scrypt at the configured cost, r=8, p=1; only the right password verifies", async () => {
  const hash = await hashPassword("s3cret pass");
  assert.match(hash, new RegExp(`^scrypt\\$${getConfig().scryptLogN}\\$8\\$1\\$`));
  assert.equal(await verifyPassword("s3cret pass", hash), true);
  assert.equal(await verifyPassword("s3cret pasS", hash), false);
  assert.equal(await verifyPassword("s3cret pass", "garbage"), false);
  assert.notEqual(await hashPassword("s3cret pass"), hash, "a fresh salt each time");
});

Deno.test("[secret-box] sealed secrets open with the same key and never with another", () => {
  const box = createSecretBox("k".repeat(32));
  const sealed = box.seal("JBSWY3DPEHPK3PXP");
  assert.doesNotMatch(sealed, /JBSWY3DPEHPK3PXP/);
  assert.equal(box.open(sealed), "JBSWY3DPEHPK3PXP");
  assert.throws(() => createSecretBox("j".repeat(32)).open(sealed));
  const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "B" : "A") + sealed.slice(-1);
  assert.throws(() => box.open(tampered));
});

Deno.test("[devices] a device cookie is known only for the accounts that signed in with it", () => {
  const box = createSecretBox("k".repeat(32));
  const ada = { userType: "admin" as const, email: "ada@example.com" };
  const cookie = rememberDevice(box, undefined, ada);
  const id = knownDeviceId(box, cookie, ada);
  assert.ok(id);
  assert.doesNotMatch(cookie, /ada/, "the cookie names no account");
  assert.equal(knownDeviceId(box, cookie, { ...ada, email: "bob@example.com" }), null);
  assert.equal(knownDeviceId(box, cookie, { ...ada, userType: "reseller" }), null);
  assert.equal(knownDeviceId(createSecretBox("j".repeat(32)), cookie, ada), null);
  const [entryId, signature] = cookie.split(".");
  const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
  assert.equal(knownDeviceId(box, `${entryId}.${flipped}`, ada), null, "an altered signature");
  assert.equal(knownDeviceId(box, `${"x".repeat(22)}.${signature}`, ada), null, "another id");
  assert.equal(knownDeviceId(box, "garbage~.~", ada), null);
  assert.equal(rememberDevice(box, cookie, ada), cookie, "signing in again changes nothing");

  // One browser remembers the last 5 accounts that signed in on it, newest first.
  let shared = cookie;
  const others = [1, 2, 3, 4, 5].map((n) => ({ ...ada, email: `admin${n}@example.com` }));
  for (const account of others.slice(0, 4)) shared = rememberDevice(box, shared, account);
  assert.equal(knownDeviceId(box, shared, ada), id);
  assert.ok(others.slice(0, 4).every((a) => knownDeviceId(box, shared, a)));
  shared = rememberDevice(box, `${shared}~junk`, others[4]);
  assert.equal(shared.split("~").length, 5);
  assert.equal(knownDeviceId(box, shared, ada), null, "the oldest is forgotten");
  assert.ok(knownDeviceId(box, shared, others[4]));
});

Deno.test("[ranks] the console opens for ranks containing 'admin' after trim and lowercase", () => {
  assert.equal(isAdminRank("Admin"), true);
  assert.equal(isAdminRank("  superadmin "), true);
  assert.equal(isAdminRank("ADMIN"), true);
  assert.equal(isAdminRank("Staff"), false);
  assert.equal(isAdminRank("Reseller"), false);
});
