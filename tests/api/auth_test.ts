import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { generateTotpCode, generateTotpSecret } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN, DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const PASSWORD = "correct horse battery";
let tdb: TestDatabase;
let server: TestServer;
let demoSecret = "";

async function setUp() {
  tdb = await createTestDatabase();
  await withHandle(tdb, async (db) => {
    await seedDemoUsers(db);
    await createAdmin(db, {
      name: "Sam Staff",
      email: "staff@test.example",
      password: PASSWORD,
      rank: "Staff",
      createdBy: "test",
    });
    await createAdmin(db, {
      name: "Tia Throttle",
      email: "throttle@test.example",
      password: PASSWORD,
      rank: "Admin",
      createdBy: "test",
    });
    await createAdmin(db, {
      name: "Rae Replay",
      email: "replay@test.example",
      password: PASSWORD,
      rank: "Admin",
      createdBy: "test",
    });
    await createTestReseller(db, {
      name: "Tfa Reseller",
      email: "tfa@test.example",
      password: PASSWORD,
      balanceCents: 0,
      twoFAEnabled: true,
    });
  });
  server = await startTestServer(tdb);
}

async function tearDown() {
  await server.stop();
  await tdb.drop();
}

/** Signs an admin in through enrolment and a code; returns the client and the secret. */
async function enrolAndSignIn(
  email: string,
  password: string,
  userType = "admin",
) {
  const client = new TestClient(server.url);
  const login = await client.post(`/api/login_${userType}`, {
    username: email,
    password,
  });
  assert.equal(login.status, 202, login.text);
  const secret = login.json.secret as string;
  const code = generateTotpCode(secret);
  const verify = await client.post("/api/verify-totp", {
    user: email,
    secret,
    code,
  });
  assert.equal(verify.status, 200, verify.text);
  return { client, secret, code };
}

const sanitizeOps = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[auth] sign-in rules over HTTP",
  ...sanitizeOps,
  async fn(t) {
    await setUp();
    try {
      await t.step(
        "first admin sign-in answers 202 with the user, a QR code and the secret",
        async () => {
          const client = new TestClient(server.url);
          const r = await client.post("/api/login_admin", {
            username: "Admin@Demo.Test",
            password: DEMO_ADMIN.password,
          });
          assert.equal(r.status, 202);
          assert.equal(r.json.user.twoFAEnabled, true);
          assert.equal(r.json.user.email, DEMO_ADMIN.email);
          assert.match(r.json.qr, /^data:image\/png;base64,/);
          assert.match(r.json.secret, /^[A-Z2-7]{32}$/);
          demoSecret = r.json.secret;
          const before = await client.get("/api/current_user");
          assert.equal(before.status, 401, "password alone is not a sign-in");
          const sidAfterPassword = client.cookies.get("topup_session");
          const ok = await client.post("/api/verify-totp", {
            user: DEMO_ADMIN.email,
            secret: r.json.secret,
            code: generateTotpCode(r.json.secret),
          });
          assert.equal(ok.status, 200);
          assert.equal(ok.json.verified2FA, true);
          assert.notEqual(
            client.cookies.get("topup_session"),
            sidAfterPassword,
            "a new session id after the second factor",
          );
          const me = await client.get("/api/current_user");
          assert.equal(me.status, 200);
          assert.equal(me.json.user.name, DEMO_ADMIN.name);
          assert.doesNotMatch(me.text, /password|totp|scrypt/i);
          assert.ok(!("secret" in me.json.user));
        },
      );

      await t.step("the session cookie is HttpOnly and SameSite=Lax", async () => {
        const r = await fetch(new URL("/api/login_reseller", server.url), {
          method: "POST",
          body: JSON.stringify({ username: DEMO_RESELLER.email, password: DEMO_RESELLER.password }),
        });
        const cookie = r.headers.getSetCookie().find((c) => c.startsWith("topup_session="))!;
        assert.match(cookie, /HttpOnly/i);
        assert.match(cookie, /SameSite=Lax/i);
        assert.doesNotMatch(cookie, /Secure/i, "plain HTTP without an https PUBLIC_URL");
        // The device cookie marks the browser for the sign-in throttles; it outlives the session.
        const device = r.headers.getSetCookie().find((c) => c.startsWith("topup_device="))!;
        assert.match(device, /HttpOnly/i);
        assert.match(device, /SameSite=Lax/i);
        assert.match(device, /Max-Age=31536000/i);
        assert.doesNotMatch(device, /Secure/i);
        await r.body?.cancel();
      });

      await t.step(
        "wrong password and unknown email get the same status and body",
        async () => {
          const client = new TestClient(server.url);
          const wrong = await client.post("/api/login_admin", {
            username: DEMO_ADMIN.email,
            password: "not-it",
          });
          const unknown = await client.post("/api/login_admin", {
            username: "nobody@test.example",
            password: "not-it",
          });
          assert.equal(wrong.status, 401);
          assert.equal(unknown.status, wrong.status);
          assert.equal(unknown.text, wrong.text);
          assert.deepEqual(wrong.json, {
            error: "Please check your email or password.",
          });
        },
      );

      await t.step(
        "repeated failures are throttled with 429 before the password is checked",
        async () => {
          const client = new TestClient(server.url);
          for (let i = 0; i < 5; i++) {
            const r = await client.post("/api/login_admin", {
              username: "throttle@test.example",
              password: `guess-${i}`,
            });
            assert.equal(r.status, 401);
          }
          const right = await client.post("/api/login_admin", {
            username: "throttle@test.example",
            password: PASSWORD,
          });
          assert.equal(
            right.status,
            429,
            "even the right password is refused while throttled",
          );
          assert.ok(right.headers.get("retry-after"));
        },
      );

      await t.step(
        "a code accepted once is refused when sent again",
        async () => {
          const { secret, code } = await enrolAndSignIn(
            "replay@test.example",
            PASSWORD,
          );
          const again = new TestClient(server.url);
          const login = await again.post("/api/login_admin", {
            username: "replay@test.example",
            password: PASSWORD,
          });
          assert.equal(login.status, 200);
          assert.equal(login.json.twoFARequired, true);
          // The enrolment code's step is spent: the very same code must fail, even when the
          // clock has meanwhile moved into the next step (drift of one step is still accepted).
          const reused = await again.post("/api/verify-totp", { code });
          assert.equal(reused.status, 401);
          assert.equal(
            reused.json.error,
            "Verification failed, Please try again.",
          );
          const next = await again.post("/api/verify-totp", {
            code: generateTotpCode(secret, Date.now() + 30_000),
          });
          assert.equal(next.status, 200, "the next step's code is accepted");
        },
      );

      await t.step(
        "a client-sent secret that differs from the server's has no effect",
        async () => {
          const client = new TestClient(server.url);
          const login = await client.post("/api/login_reseller", {
            username: "tfa@test.example",
            password: PASSWORD,
          });
          assert.equal(login.status, 202);
          const mine = generateTotpSecret();
          const forged = await client.post("/api/verify-totp", {
            user: "tfa@test.example",
            secret: mine,
            code: generateTotpCode(mine),
          });
          assert.equal(
            forged.status,
            401,
            "a code from the client's own secret is refused",
          );
          const real = await client.post("/api/verify-totp", {
            user: "tfa@test.example",
            secret: mine,
            code: generateTotpCode(login.json.secret),
          });
          assert.equal(
            real.status,
            200,
            "the server's secret decides, whatever the client sends",
          );
        },
      );

      await t.step("more than 2 failed codes end the sign-in", async () => {
        const client = new TestClient(server.url);
        const login = await client.post("/api/login_admin", {
          username: "staff@test.example",
          password: PASSWORD,
        });
        assert.equal(login.status, 202);
        for (let i = 0; i < 3; i++) {
          const r = await client.post("/api/verify-totp", { code: "000000" });
          assert.equal(r.status, 401);
        }
        const late = await client.post("/api/verify-totp", {
          code: generateTotpCode(login.json.secret),
        });
        assert.equal(
          late.status,
          401,
          "the session ended after the third failure",
        );
      });

      await t.step(
        "a reseller session gets 403 from admin routes",
        async () => {
          const client = new TestClient(server.url);
          const r = await client.post("/api/login_reseller", {
            username: DEMO_RESELLER.email,
            password: DEMO_RESELLER.password,
          });
          assert.equal(r.status, 200);
          assert.equal(r.json.verified2FA, true);
          assert.equal(
            (await client.get("/api/current_user")).json.user.role,
            "reseller",
          );
          const admins = await client.get("/api/admins");
          assert.equal(admins.status, 403);
          const page = await client.get("/admin/home");
          assert.equal(page.status, 302);
          assert.equal(page.headers.get("location"), "/admin");
        },
      );

      await t.step(
        "a non-admin rank cannot open /admin/home or admin routes",
        async () => {
          const { client } = await enrolAndSignIn(
            "staff@test.example",
            PASSWORD,
          );
          const page = await client.get("/admin/home");
          assert.equal(page.status, 403);
          assert.doesNotMatch(page.text, /Welcome/);
          assert.equal((await client.get("/api/admins")).status, 403);
        },
      );

      await t.step(
        "an admin opens the console and /home leads there",
        async () => {
          const client = new TestClient(server.url);
          const login = await client.post("/api/login_admin", {
            username: DEMO_ADMIN.email,
            password: DEMO_ADMIN.password,
          });
          assert.equal(login.status, 200);
          assert.equal(login.json.twoFARequired, true);
          const code = generateTotpCode(demoSecret, Date.now() + 30_000);
          assert.equal(
            (await client.post("/api/verify-totp", { code })).status,
            200,
          );
          const home = await client.get("/home");
          assert.equal(home.status, 302);
          assert.equal(home.headers.get("location"), "/admin/home");
          const page = await client.get("/admin/home");
          assert.equal(page.status, 200);
          assert.match(page.text, /Welcome/);
          assert.match(page.text, /Demo Admin/);
        },
      );

      await t.step(
        "malformed bodies to each auth route get a 400 with a JSON error",
        async () => {
          const client = new TestClient(server.url);
          for (
            const path of [
              "/api/login_admin",
              "/api/login_reseller",
              "/api/verify-totp",
            ]
          ) {
            for (
              const body of [
                "{not json",
                "[]",
                "null",
                '{"username": 5}',
                '{"code": {"x": 1}}',
                '"text"',
              ]
            ) {
              const r = await client.post(path, body);
              assert.equal(r.status, 400, `${path} ${body}: ${r.text}`);
              assert.equal(typeof r.json.error, "string");
            }
          }
          const empty = await client.post("/api/login_admin", {
            username: "",
            password: "",
          });
          assert.equal(empty.status, 400);
          assert.match(empty.json.error, /Please fill in email and password/);
        },
      );

      await t.step("logout ends the session on the server", async () => {
        const admin = new TestClient(server.url);
        const login = await admin.post("/api/login_reseller", {
          username: DEMO_RESELLER.email,
          password: DEMO_RESELLER.password,
        });
        assert.equal(login.status, 200);
        const stolen = new TestClient(server.url);
        stolen.cookies = new Map(admin.cookies);
        const out = await admin.post("/api/logout");
        assert.equal(out.status, 200);
        assert.equal(out.json.redirect, "/resellers");
        assert.equal(
          (await stolen.get("/api/current_user")).status,
          401,
          "the old cookie is dead",
        );
      });

      await t.step(
        "a cross-origin state-changing request is refused",
        async () => {
          const client = new TestClient(server.url, {
            origin: "https://evil.example",
          });
          const r = await client.post("/api/login_reseller", {
            username: DEMO_RESELLER.email,
            password: DEMO_RESELLER.password,
          });
          assert.equal(r.status, 403);
          const same = new TestClient(server.url, {
            origin: new URL(server.url).origin,
          });
          assert.equal(
            (await same.post("/api/login_reseller", {
              username: DEMO_RESELLER.email,
              password: DEMO_RESELLER.password,
            })).status,
            200,
          );
        },
      );
    } finally {
      await tearDown();
    }
  },
});

Deno.test({
  name: "[auth] behind an https PUBLIC_URL the session cookie is Secure",
  ...sanitizeOps,
  async fn() {
    const db = await createTestDatabase();
    await withHandle(db, (h) => seedDemoUsers(h).then(() => {}));
    const https = await startTestServer(db, { PUBLIC_URL: "https://shop.example" });
    try {
      const r = await fetch(new URL("/api/login_reseller", https.url), {
        method: "POST",
        body: JSON.stringify({ username: DEMO_RESELLER.email, password: DEMO_RESELLER.password }),
      });
      assert.equal(r.status, 200);
      assert.match(r.headers.getSetCookie().join("\n"), /topup_session=[^;]+;.*Secure/i);
      assert.match(r.headers.getSetCookie().join("\n"), /topup_device=[^;]+;.*Secure/i);
      await r.body?.cancel();
    } finally {
      await https.stop();
      await db.drop();
    }
  },
});
