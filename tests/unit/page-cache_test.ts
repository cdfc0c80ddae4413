import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPageCache } from "../../src/server/page-cache.ts";

/**
 * A node:http server whose pages come through the cache; `render` counts the renders and answers
 * with the version it rendered for (and a cookie when asked to).
 */
async function serveThroughCache(
  paths: string[],
  options: { versionMaxAgeMs?: number; localWrites?: () => number } = {},
) {
  let version = "v1";
  let asked = 0;
  const rendered: string[] = [];
  const cache = createPageCache((path) => paths.includes(path), () => {
    asked++;
    return Promise.resolve(version);
  }, options);
  const render = (req: IncomingMessage, res: ServerResponse) => {
    rendered.push(req.url ?? "");
    if (req.url?.includes("set-cookie")) res.setHeader("set-cookie", "visited=1");
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<p>page ${version}</p>`);
  };
  let requests = 0;
  const server = createServer((req, res) => {
    // As cli/serve.ts does: the server names each request before the page is rendered or found.
    res.setHeader("x-request-id", `request-${++requests}`);
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
  const requestIdOf = async (path: string) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`);
    await r.body?.cancel();
    return r.headers.get("x-request-id");
  };
  return {
    get,
    requestIdOf,
    rendered,
    asked: () => asked,
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

Deno.test("page cache: the version is asked at most once per max age, and at once after a write of this process", async () => {
  let writes = 0;
  const site = await serveThroughCache(["/consumers"], {
    versionMaxAgeMs: 60_000,
    localWrites: () => writes,
  });
  try {
    await Promise.all(Array.from({ length: 5 }, () => site.get("/consumers")));
    await site.get("/consumers");
    assert.equal(site.asked(), 1, "six visits within the age, one version read");

    // Another instance changed the catalogue: this one shows it once the age has passed.
    site.setVersion("v2");
    assert.equal((await site.get("/consumers")).text, "<p>page v1</p>");
    assert.equal(site.asked(), 1);

    // This process wrote to the catalogue: the next visit asks, and renders the new version.
    writes++;
    assert.equal((await site.get("/consumers")).text, "<p>page v2</p>");
    assert.equal(site.asked(), 2);
    assert.equal((await site.get("/consumers")).text, "<p>page v2</p>");
    assert.equal(site.asked(), 2);
  } finally {
    await site.close();
  }

  const aging = await serveThroughCache(["/consumers"], { versionMaxAgeMs: 50 });
  try {
    await aging.get("/consumers");
    aging.setVersion("v2");
    await new Promise((ok) => setTimeout(ok, 80));
    assert.equal(
      (await aging.get("/consumers")).text,
      "<p>page v2</p>",
      "read again after the age",
    );
    assert.equal(aging.asked(), 2);
  } finally {
    await aging.close();
  }
});

Deno.test("page cache: a page from memory carries its own visit's request id, not the render's", async () => {
  const site = await serveThroughCache(["/consumers"]);
  try {
    assert.equal(await site.requestIdOf("/consumers"), "request-1");
    assert.equal(await site.requestIdOf("/consumers"), "request-2");
    assert.equal(await site.requestIdOf("/consumers"), "request-3");
    assert.equal(site.rendered.length, 1);
  } finally {
    await site.close();
  }
});
