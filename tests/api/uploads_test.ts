import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";
import { DEMO_ADMIN, DEMO_RESELLER, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const ENDPOINT = "/api/generate-s3-bucket-url";

let tdb: TestDatabase;
let server: TestServer;
let uploadsDir: string | undefined;

async function setUp() {
  tdb = await createTestDatabase();
  await withHandle(tdb, seedDemoUsers);
  // On PostgreSQL the test database has no data folder of its own; uploads need one.
  if (tdb.backend === "postgres") {
    uploadsDir = await Deno.makeTempDir({ prefix: "topup-uploads-" });
  }
  server = await startTestServer(tdb, uploadsDir ? { DATA_DIR: uploadsDir } : {});
}

async function tearDown() {
  await server.stop();
  await tdb.drop();
  if (uploadsDir) await Deno.remove(uploadsDir, { recursive: true });
}

async function signInAdmin(): Promise<TestClient> {
  const client = new TestClient(server.url);
  const login = await client.post("/api/login_admin", {
    username: DEMO_ADMIN.email,
    password: DEMO_ADMIN.password,
  });
  assert.equal(login.status, 202, login.text);
  const verify = await client.post("/api/verify-totp", {
    user: DEMO_ADMIN.email,
    secret: login.json.secret,
    code: generateTotpCode(login.json.secret),
  });
  assert.equal(verify.status, 200, verify.text);
  return client;
}

/** A PUT as the admin console's fetch sends it from the page: same origin, the file's type. */
function browserPut(url: string, body: Uint8Array<ArrayBuffer>, contentType = "image/png") {
  return fetch(url, {
    method: "PUT",
    headers: {
      "content-type": contentType,
      origin: new URL(server.url).origin,
      "sec-fetch-site": "same-origin",
    },
    body,
  });
}

async function presign(admin: TestClient, fileName = "Hero Banner.png", fileType = "image/png") {
  const r = await admin.post(ENDPOINT, { fileName, fileType });
  assert.equal(r.status, 200, r.text);
  return r.json.presignedUrl as string;
}

const sanitizeOps = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[uploads] admin image upload through a presigned URL over HTTP",
  ...sanitizeOps,
  async fn(t) {
    await setUp();
    try {
      const admin = await signInAdmin();

      await t.step(
        "an admin gets a 5-minute upload URL; the PUT file is served at the URL without query",
        async () => {
          const r = await admin.post(ENDPOINT, {
            fileName: "Hero Banner.png",
            fileType: "image/png",
          });
          assert.equal(r.status, 200, r.text);
          const url = new URL(r.json.presignedUrl);
          assert.equal(url.origin, new URL(server.url).origin);
          assert.match(url.pathname, /^\/uploads\/games\/[0-9a-f-]{36}-hero-banner\.png$/);
          const expires = Number(url.searchParams.get("expires"));
          assert.ok(Math.abs(expires - (Date.now() / 1000 + 300)) < 30, String(expires));
          const imageUrl = r.json.presignedUrl.split("?")[0];
          assert.equal(r.json.imageUrl, imageUrl);

          const before = await fetch(imageUrl);
          assert.equal(before.status, 404);
          await before.body?.cancel();

          const stored = await browserPut(r.json.presignedUrl, PNG);
          assert.equal(stored.status, 200, await stored.text());

          const image = await fetch(imageUrl);
          assert.equal(image.status, 200);
          assert.equal(image.headers.get("content-type"), "image/png");
          assert.equal(image.headers.get("cache-control"), "public, max-age=31536000, immutable");
          assert.equal(image.headers.get("x-content-type-options"), "nosniff");
          assert.deepEqual(new Uint8Array(await image.arrayBuffer()), new Uint8Array(PNG));

          const again = await browserPut(r.json.presignedUrl, PNG);
          assert.equal(again.status, 409, "an upload URL writes once: served bytes never change");
          await again.body?.cancel();
        },
      );

      await t.step(
        "a tampered signature or a changed content type is refused with 403",
        async () => {
          const url = await presign(admin);
          const tampered = url.replace(
            /signature=([0-9a-f])/,
            (_, c) => `signature=${c === "0" ? "1" : "0"}`,
          );
          assert.notEqual(tampered, url);
          for (
            const r of [
              await browserPut(tampered, PNG),
              await browserPut(url, PNG, "image/jpeg"),
              await browserPut(url, PNG, "text/html"),
              await browserPut(url.replace(/hero-banner/, "hero-banner2"), PNG),
            ]
          ) {
            assert.equal(r.status, 403);
            assert.ok((await r.json()).error);
          }
          const image = await fetch(url.split("?")[0]);
          assert.equal(image.status, 404, "nothing was stored");
          await image.body?.cancel();
        },
      );

      await t.step(
        "a body that is not the signed image type is refused with the spec text",
        async () => {
          const url = await presign(admin);
          const r = await browserPut(url, new TextEncoder().encode("<script>alert(1)</script>"));
          assert.equal(r.status, 400);
          assert.deepEqual(await r.json(), { error: "Please select a valid image file" });
        },
      );

      await t.step("a non-image type or a bad body is a 400 with the spec text", async () => {
        for (const fileType of ["text/plain", "image/svg+xml", "application/pdf"]) {
          const r = await admin.post(ENDPOINT, { fileName: "notes.png", fileType });
          assert.equal(r.status, 400, fileType);
          assert.deepEqual(r.json, { error: "Please select a valid image file" });
        }
        for (
          const body of [
            { fileName: "a".repeat(201), fileType: "image/png" },
            { fileType: "image/png" },
            { fileName: "a.png" },
            { fileName: 7, fileType: "image/png" },
          ]
        ) {
          const r = await admin.post(ENDPOINT, body);
          assert.equal(r.status, 400, JSON.stringify(body));
          assert.equal(typeof r.json.error, "string");
        }
        const malformed = await admin.post(ENDPOINT, "{not json");
        assert.equal(malformed.status, 400);
      });

      await t.step("a reseller session gets 403 and no session gets 401", async () => {
        const reseller = new TestClient(server.url);
        const login = await reseller.post("/api/login_reseller", {
          username: DEMO_RESELLER.email,
          password: DEMO_RESELLER.password,
        });
        assert.equal(login.status, 200, login.text);
        const forbidden = await reseller.post(ENDPOINT, {
          fileName: "a.png",
          fileType: "image/png",
        });
        assert.equal(forbidden.status, 403);
        const anonymous = await new TestClient(server.url).post(ENDPOINT, {
          fileName: "a.png",
          fileType: "image/png",
        });
        assert.equal(anonymous.status, 401);
      });

      await t.step(
        "only upload keys are served: not the signing key, not a guessed path",
        async () => {
          const dataDir = uploadsDir ?? tdb.env.DATA_DIR;
          assert.ok((await Deno.stat(join(dataDir, "uploads", ".signing-key"))).isFile);
          for (
            const path of [
              "/uploads/.signing-key",
              "/uploads/games/..%2F.signing-key",
              "/uploads/%2e%2e/%2e%2e/package.json",
              "/uploads/games/0b6c7a52-3f1e-4c8a-9d2b-5e4f3a2b1c0d-missing.png",
            ]
          ) {
            const r = await fetch(new URL(path, server.url));
            assert.equal(r.status, 404, path);
            assert.doesNotMatch(await r.text(), /^[0-9a-f]{64}$/);
          }
        },
      );
    } finally {
      await tearDown();
    }
  },
});
