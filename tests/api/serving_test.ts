// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): static files,
// unknown paths and malformed URLs never reach the database.
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { rawRequest } from "../helpers/raw-http.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[serving] built assets, unknown API paths and malformed URLs",
  ...opts,
  async fn(t) {
    const tdb: TestDatabase = await createTestDatabase();
    const server: TestServer = await startTestServer(tdb);
    try {
      const page = await (await fetch(new URL("/admin", server.url))).text();
      const script = page.match(/\/_astro\/[\w.-]+\.js/)?.[0];
      assert.ok(script, "the sign-in page loads a built script");

      await t.step(
        "a built script is served with its type and a year of immutable caching",
        async () => {
          // Uncompressed, so its length is the file's (compression_test.ts covers the rest).
          const r = await fetch(new URL(script, server.url), {
            headers: { "accept-encoding": "identity" },
          });
          assert.equal(r.status, 200);
          assert.equal(r.headers.get("content-type"), "text/javascript; charset=utf-8");
          assert.equal(r.headers.get("cache-control"), "public, max-age=31536000, immutable");
          const body = await r.text();
          assert.equal(
            Number(r.headers.get("content-length")),
            new TextEncoder().encode(body).length,
          );
          const again = await fetch(new URL(script, server.url), {
            headers: { "if-none-match": r.headers.get("etag")!, "accept-encoding": "identity" },
          });
          assert.equal(again.status, 304);
          await again.body?.cancel();
        },
      );

      await t.step("an /api path no route serves is a JSON 404", async () => {
        const r = await fetch(new URL("/api/no_such_call", server.url));
        assert.equal(r.status, 404);
        assert.deepEqual(await r.json(), { error: "Not found" });
      });

      await t.step("files outside the build's client folder are not reachable", async () => {
        for (
          const path of ["/_astro/../../server/entry.mjs", "/../package.json", "/server/entry.mjs"]
        ) {
          const r = await fetch(new URL(path, server.url));
          assert.notEqual(r.status, 200, path);
          await r.body?.cancel();
        }
      });

      await t.step(
        "TRACE, PROPFIND and other methods are a 405 with Allow; metrics count them as other",
        async () => {
          for (
            const [method, path, body] of [
              ["TRACE", "/consumers", "Method not allowed."],
              ["PROPFIND", "/consumers", "Method not allowed."],
              ["TRACE", "/api/orders", '{"error":"Method TRACE is not allowed"}'],
            ]
          ) {
            const r = await rawRequest(server.url, method, path);
            assert.equal(r.status, 405, `${method} ${path}: ${r.body}`);
            assert.equal(r.headers.allow, "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
            assert.equal(r.body, body);
          }
          const metrics = await (await fetch(new URL("/metrics", server.url))).text();
          assert.match(metrics, /topup_http_requests_total\{[^}]*method="other"[^}]*\} 3/);
          assert.doesNotMatch(metrics, /method="(TRACE|PROPFIND)"/);
          assert.doesNotMatch(server.output(), /Method is forbidden/, "nothing reached a renderer");
        },
      );

      await t.step("without TRUST_PROXY a client's own X-Request-Id is replaced", async () => {
        const r = await fetch(new URL("/api/no_such_call", server.url), {
          headers: { "x-request-id": "client-chosen-id-0001" },
        });
        await r.body?.cancel();
        assert.match(r.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
      });

      await t.step("a URL that does not decode is a 400", async () => {
        const r = await fetch(new URL("/%E0%A4%A", server.url));
        assert.equal(r.status, 400);
        assert.equal(await r.text(), "Bad request.");
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
