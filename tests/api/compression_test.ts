// HTML and scripts go compressed to a client that accepts it (issue 27): the consumer pages from
// the page cache and the build's scripts, in brotli or gzip by Accept-Encoding, decoding to the
// very bytes sent uncompressed; images go as they are.
import assert from "node:assert/strict";
import { get } from "node:http";
import { Buffer } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { preferredEncoding } from "../../src/server/compression.ts";

/** A raw GET (no client-side decoding): status, headers and the bytes as sent. */
function rawGet(url: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (ok, fail) => {
      get(url, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on(
          "end",
          () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on("error", fail);
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
