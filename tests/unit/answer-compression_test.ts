// compressAnswer on a bare node:http server: what the app renders goes compressed when the client
// accepts it, however it is written (chunks across the threshold, strings, one end), and what must
// go as written does.
import assert from "node:assert/strict";
import { createServer, request, type ServerResponse } from "node:http";
import { Buffer } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { compressAnswer } from "../../src/server/compression.ts";

const PAGE = `<!doctype html><ul>${
  Array.from({ length: 80 }, (_, i) => `<li>item ${i}</li>`).join("")
}</ul>`;

/** Each path answers as an app route would; every answer passes through compressAnswer. */
const ROUTES: Record<string, (res: ServerResponse) => void> = {
  "/chunks": (res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    for (let at = 0; at < PAGE.length; at += 300) res.write(PAGE.slice(at, at + 300));
    res.end();
  },
  "/json": (res) => {
    res.statusCode = 200;
    res.setHeader("content-type", "application/json");
    res.end(Buffer.from(JSON.stringify({ page: PAGE })));
  },
  "/raw-headers": (res) => {
    res.writeHead(404, ["content-type", "text/html", "vary", "Origin"]);
    res.end(PAGE);
  },
  "/small": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  },
  "/no-transform": (res) => {
    res.writeHead(200, { "content-type": "text/html", "cache-control": "no-transform" });
    res.end(PAGE);
  },
  "/encoded": (res) => {
    res.writeHead(200, { "content-type": "text/html", "content-encoding": "identity" });
    res.end(PAGE);
  },
  "/events": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`data: ${PAGE}\n\n`);
  },
  "/not-modified": (res) => {
    res.writeHead(304, { "content-type": "text/html" });
    res.end();
  },
};

async function serve() {
  const server = createServer((req, res) => {
    compressAnswer(req, res);
    ROUTES[req.url!](res);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  const get = (path: string, acceptEncoding: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((ok, fail) => {
      request(
        `http://127.0.0.1:${port}${path}`,
        { headers: { "accept-encoding": acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on(
            "end",
            () =>
              ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      ).on("error", fail).end();
    });
  return { get, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

Deno.test("[compression] a rendered page or JSON answer goes compressed whole, however written", async () => {
  const site = await serve();
  try {
    for (const [path, body] of [["/chunks", PAGE], ["/json", JSON.stringify({ page: PAGE })]]) {
      const br = await site.get(path, "br");
      assert.equal(br.headers["content-encoding"], "br", path);
      assert.equal(br.headers["vary"], "Accept-Encoding", path);
      assert.equal(brotliDecompressSync(br.body).toString(), body, path);
      const gzip = await site.get(path, "gzip");
      assert.equal(gzip.headers["content-encoding"], "gzip", path);
      assert.equal(gunzipSync(gzip.body).toString(), body, path);
      const plain = await site.get(path, "identity");
      assert.equal(plain.headers["content-encoding"], undefined, path);
      assert.equal(plain.body.toString(), body, path);
    }
    const raw = await site.get("/raw-headers", "gzip");
    assert.equal(raw.status, 404);
    assert.equal(raw.headers["vary"], "Origin, Accept-Encoding");
    assert.equal(gunzipSync(raw.body).toString(), PAGE);
  } finally {
    await site.close();
  }
});

Deno.test("[compression] small, no-transform, encoded, event-stream and 304 answers go as written", async () => {
  const site = await serve();
  try {
    const small = await site.get("/small", "gzip, br");
    assert.equal(small.headers["content-encoding"], undefined);
    assert.equal(small.headers["content-length"], "11");
    assert.equal(small.body.toString(), '{"ok":true}');
    for (const path of ["/no-transform", "/encoded", "/events"]) {
      const r = await site.get(path, "gzip, br");
      assert.notEqual(r.headers["content-encoding"], "br", path);
      assert.match(r.body.toString(), /item 79/, path);
    }
    const notModified = await site.get("/not-modified", "gzip, br");
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers["content-encoding"], undefined);
  } finally {
    await site.close();
  }
});
