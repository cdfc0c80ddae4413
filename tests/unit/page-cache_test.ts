import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPageCache } from "../../src/server/page-cache.ts";

/**
 * A node:http server whose pages come through the cache; `render` counts the renders and answers
 * with the version it rendered for (and a cookie when asked to).
 */
async function serveThroughCache(paths: string[]) {
  let version = "v1";
  const rendered: string[] = [];
  const cache = createPageCache(paths, () => Promise.resolve(version));
  const render = (req: IncomingMessage, res: ServerResponse) => {
    rendered.push(req.url ?? "");
    if (req.url?.includes("set-cookie")) res.setHeader("set-cookie", "visited=1");
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<p>page ${version}</p>`);
  };
  const server = createServer((req, res) => {
    cache.handle(req, res, render).then((answered) => {
      if (!answered) render(req, res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  const get = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers });
    return { status: r.status, text: await r.text(), type: r.headers.get("content-type") };
  };
  return {
    get,
    rendered,
    setVersion: (v: string) => version = v,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

Deno.test("page cache: one render per version, whatever the visitor's cookies or the link's query", async () => {
  const site = await serveThroughCache(["/consumers/mobile-legends"]);
  try {
    const first = await site.get("/consumers/mobile-legends");
    assert.deepEqual(first, { status: 200, text: "<p>page v1</p>", type: "text/html" });
    assert.deepEqual(await site.get("/consumers/mobile-legends"), first);
    assert.deepEqual(
      await site.get("/consumers/mobile-legends", { cookie: "topup_session=abc" }),
      first,
    );
    assert.deepEqual(await site.get("/consumers/mobile-legends?fbclid=xyz&utm_source=fb"), first);
    assert.deepEqual(site.rendered, ["/consumers/mobile-legends"]);

    site.setVersion("v2");
    assert.equal((await site.get("/consumers/mobile-legends?fbclid=1")).text, "<p>page v2</p>");
    assert.equal((await site.get("/consumers/mobile-legends")).text, "<p>page v2</p>");
    assert.equal(site.rendered.length, 2);
  } finally {
    await site.close();
  }
});

Deno.test("page cache: other paths, other methods and answers that set a cookie are rendered each time", async () => {
  const site = await serveThroughCache(["/consumers"]);
  try {
    await site.get("/consumers/order?order=C1");
    await site.get("/consumers/order?order=C1");
    assert.equal(site.rendered.length, 2, "a path not listed is never cached");

    await site.get("/consumers", {}, "HEAD");
    await site.get("/consumers", {}, "HEAD");
    assert.equal(site.rendered.length, 4, "only GET is cached");

    await site.get("/consumers?set-cookie");
    await site.get("/consumers?set-cookie");
    assert.equal(site.rendered.length, 6, "an answer with Set-Cookie is not stored");

    await site.get("/consumers");
    await site.get("/consumers");
    assert.equal(site.rendered.length, 7, "a plain answer is stored once");
  } finally {
    await site.close();
  }
});
