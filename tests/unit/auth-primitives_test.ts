import assert from "node:assert/strict";
import { generateTotpCode, generateTotpSecret, matchTotpStep } from "../../src/domain/auth/totp.ts";
import { hashPassword, verifyPassword } from "../../src/domain/auth/passwords.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import { isAdminRank } from "../../src/domain/auth/users.ts";

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

Deno.test("[passwords] scrypt with OWASP parameters; only the right password verifies", async () => {
  const hash = await hashPassword("s3cret pass");
  assert.match(hash, /^scrypt\$17\$8\$1\$/);
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

Deno.test("[ranks] the console opens for ranks containing 'admin' after trim and lowercase", () => {
  assert.equal(isAdminRank("Admin"), true);
  assert.equal(isAdminRank("  superadmin "), true);
  assert.equal(isAdminRank("ADMIN"), true);
  assert.equal(isAdminRank("Staff"), false);
  assert.equal(isAdminRank("Reseller"), false);
});
