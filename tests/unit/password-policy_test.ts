import assert from "node:assert/strict";
import { DEMO_PASSWORDS } from "../../src/config.ts";
import { isPublishedPassword, passwordWeakness } from "../../src/domain/auth/password-policy.ts";

Deno.test("[password policy] short, published and guessable passwords are refused, saying why", async () => {
  assert.equal(await passwordWeakness("short"), "Password must be at least 8 characters");
  assert.equal(await passwordWeakness("x".repeat(1025)), "Password is too long");
  for (const published of [DEMO_PASSWORDS.admin, DEMO_PASSWORDS.reseller, "a long password"]) {
    assert.equal(
      await passwordWeakness(published),
      "This password is published (a demo or example password): choose one of your own",
    );
  }
  for (const guessable of ["12345678", "password1", "Winter2025!", "qwertyuiop", "iloveyou123"]) {
    assert.match(
      (await passwordWeakness(guessable)) ?? "accepted",
      /^Password is too easy to guess\. \S/,
      guessable,
    );
  }
});

Deno.test("[password policy] the owner's own email and name count as known words", async () => {
  const owner = { email: "quillon.vantreese@example.com", name: "Quillon Vantreese" };
  for (const password of ["quillon.vantreese", "Quillon1987!"]) {
    assert.equal(await passwordWeakness(password), null, `${password}: a stranger's is fine`);
    assert.match((await passwordWeakness(password, owner)) ?? "accepted", /too easy/, password);
  }
});

Deno.test("[password policy] phrases of unrelated words pass", async () => {
  for (const strong of ["correct horse battery", "kai's brand new password", "Tr0ub4dor&3x"]) {
    assert.equal(await passwordWeakness(strong), null, strong);
  }
  assert.equal(isPublishedPassword("demo-admin-pass"), true);
  assert.equal(isPublishedPassword("demo-admin-pass "), false, "only the published text itself");
});
