// HTML, JSON and scripts go compressed to a client that accepts it: the consumer pages
// from the page cache, the build's scripts and every page and JSON answer rendered per request,
// in brotli or gzip by Accept-Encoding, decoding to the very bytes sent uncompressed; images,
// exports, small answers and HEAD go as they are.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): what is
// compressed, and how, is the HTTP layer's, whatever the database.
import assert from "node:assert/strict";
import { request } from "node:http";
import { Buffer } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { preferredEncoding } from "../../src/server/compression.ts";

/** A raw request (no client-side decoding): status, headers and the bytes as sent. */
function rawGet(
  url: string,
  acceptEncoding?: string,
  options: { cookie?: string; method?: string } = {},
) {
  const headers = {
    ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
    ...(options.cookie ? { cookie: options.cookie } : {}),
  };
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (ok, fail) => {
      request(url, { method: options.method ?? "GET", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on(
          "end",
          () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on("error", fail).end();
    },
  );
}

Deno.test("[compression] br before gzip, q=0 refuses, no header means none", () => {
  assert.equal(preferredEncoding("gzip, deflate, br, zstd"), "br");
  assert.equal(preferredEncoding("gzip"), "gzip");
  assert.equal(preferredEncoding("br;q=0, gzip;q=0.5"), "gzip");
  assert.equal(preferredEncoding("*"), "br");
  assert.equal(preferredEncoding("identity"), null);
  assert.equal(preferredEncoding(undefined), null);
  assert.equal(preferredEncoding("gzip, deflate, br", ["gzip", "br"]), "gzip");
  assert.equal(preferredEncoding("br", ["gzip", "br"]), "br");
});

Deno.test({
  name: "[compression] consumer pages and scripts are sent compressed when accepted, " +
    "decoding to the same bytes; images are not",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const page = `${server.url}/consumers/mobile-legends`;
      await rawGet(page); // renders it into the page cache
      const plain = await rawGet(page);
      assert.equal(plain.headers["content-encoding"], undefined);
      const script = plain.body.toString().match(/\/_astro\/[\w.-]+\.js/)?.[0];
      assert.ok(script, "the page loads a built script");

      for (const url of [page, `${server.url}${script}`]) {
        const identity = await rawGet(url, "identity");
        const br = await rawGet(url, "gzip, deflate, br");
        const gzip = await rawGet(url, "gzip");
        assert.equal(identity.headers["content-encoding"], undefined, url);
        assert.equal(br.headers["content-encoding"], "br", url);
        assert.equal(gzip.headers["content-encoding"], "gzip", url);
        assert.equal(br.headers["vary"], "Accept-Encoding");
        assert.ok(br.body.length < identity.body.length / 2, `${url} shrinks`);
        assert.equal(Number(br.headers["content-length"]), br.body.length);
        assert.deepEqual(brotliDecompressSync(br.body), identity.body);
        assert.deepEqual(gunzipSync(gzip.body), identity.body);
      }

      const image = (await rawGet(page)).body.toString().match(/\/[\w/.-]+\.(png|webp|jpg)/)?.[0];
      if (image) {
        const r = await rawGet(`${server.url}${image}`, "gzip, br");
        assert.equal(r.headers["content-encoding"], undefined, "images are compressed already");
      }
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name: "[compression] pages and JSON rendered per request go compressed when accepted, " +
    "decoding to the same bytes; small answers, HEAD and the XLSX export go as they are",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const admin = await signInDemoAdmin(server.url);
      const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      // Not in the page cache: the order lookup page, an admin page and the games' JSON.
      for (const path of ["/consumers/order", "/admin/home", "/api/admin/games"]) {
        const url = `${server.url}${path}`;
        const identity = await rawGet(url, "identity", { cookie });
        // Per request gzip comes first (it costs less CPU); brotli for a client that takes only it.
        const gzip = await rawGet(url, "gzip, deflate, br", { cookie });
        const br = await rawGet(url, "br", { cookie });
        assert.equal(identity.status, 200, path);
        assert.equal(identity.headers["content-encoding"], undefined, path);
        assert.equal(identity.headers["vary"], "Accept-Encoding", path);
        assert.equal(gzip.headers["content-encoding"], "gzip", path);
        assert.equal(br.headers["content-encoding"], "br", path);
        assert.equal(gzip.headers["vary"], "Accept-Encoding", path);
        assert.ok(gzip.body.length < identity.body.length / 2, `${path} shrinks`);
        assert.deepEqual(brotliDecompressSync(br.body).toString(), identity.body.toString(), path);
        assert.deepEqual(gunzipSync(gzip.body).toString(), identity.body.toString(), path);
      }

      const small = await rawGet(`${server.url}/api/current_user`, "gzip, br");
      assert.equal(small.status, 401);
      assert.equal(small.headers["content-encoding"], undefined, "under 1 KiB: as it is");
      assert.equal(small.headers["vary"], "Accept-Encoding");
      assert.equal(Number(small.headers["content-length"]), small.body.length);

      const head = await rawGet(`${server.url}/consumers/order`, "gzip, br", { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.equal(head.headers["content-encoding"], undefined, "HEAD");

      const xlsx = await rawGet(`${server.url}/api/orders/export`, "gzip, br", { cookie });
      assert.equal(xlsx.status, 200);
      assert.match(String(xlsx.headers["content-type"]), /spreadsheetml/);
      assert.equal(xlsx.headers["content-encoding"], undefined, "an XLSX is a zip already");
      assert.equal(xlsx.body.subarray(0, 2).toString(), "PK");
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
