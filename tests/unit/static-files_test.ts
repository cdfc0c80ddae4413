// The build's client files go precompressed (brotli and gzip written beside each file at build
// time), so the server never compresses a large bundle on a request; the copies are not routes of
// their own, and a file the build did not compress is still sent compressed.
import assert from "node:assert/strict";
import { createServer, get } from "node:http";
import { Buffer } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { join } from "node:path";
import { createStaticFiles, precompressClientFiles } from "../../src/server/static-files.ts";

function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; encoding?: string; body: Buffer }>((ok, fail) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        ok({
          status: res.statusCode!,
          encoding: res.headers["content-encoding"],
          body: Buffer.concat(chunks),
        }));
    }).on("error", fail);
  });
}

Deno.test("[static files] precompressed at build, served from the copies, copies not routes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "topup-static-" });
  const server = createServer();
  try {
    const script = "export const words = " + JSON.stringify("top up ".repeat(2000)) + ";\n";
    await Deno.mkdir(join(dir, "_astro"));
    await Deno.writeTextFile(join(dir, "_astro/app.js"), script);
    await Deno.writeTextFile(join(dir, "small.js"), "export {};\n");
    await Deno.writeFile(join(dir, "logo.png"), new Uint8Array(4096));

    assert.equal(await precompressClientFiles(dir), 1, "only the large compressible file");
    const br = await Deno.readFile(join(dir, "_astro/app.js.br"));
    const gz = await Deno.readFile(join(dir, "_astro/app.js.gz"));
    assert.equal(new TextDecoder().decode(brotliDecompressSync(br)), script);
    assert.equal(new TextDecoder().decode(gunzipSync(gz)), script);
    assert.equal(await precompressClientFiles(dir), 1, "a second build does not compress copies");

    // A file the build did not compress (added after it) is compressed on request instead.
    const late = "export const late = " + JSON.stringify("x".repeat(4000)) + ";\n";
    await Deno.writeTextFile(join(dir, "late.js"), late);

    const files = createStaticFiles(dir);
    assert.equal(files.count, 4, "app.js, small.js, logo.png, late.js");
    server.on("request", (req, res) => {
      if (!files.handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

    const sentBr = await rawGet(`${base}/_astro/app.js`, "br, gzip");
    assert.equal(sentBr.encoding, "br");
    assert.deepEqual(new Uint8Array(sentBr.body), br, "the build's brotli copy, byte for byte");
    const sentGz = await rawGet(`${base}/_astro/app.js`, "gzip");
    assert.deepEqual(new Uint8Array(sentGz.body), gz);
    assert.equal((await rawGet(`${base}/_astro/app.js.br`, "br")).status, 404);
    const sentLate = await rawGet(`${base}/late.js`, "br");
    assert.equal(sentLate.encoding, "br");
    assert.equal(new TextDecoder().decode(brotliDecompressSync(sentLate.body)), late);
  } finally {
    server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
