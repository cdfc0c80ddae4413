import assert from "node:assert/strict";
import { LeanClient, textOf } from "../../bench/lean-client.ts";

const encoder = new TextEncoder();

/** The answer, or a failure when it is not read within 5 s (a framing bug waits forever). */
async function within<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      answer,
      new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error("the answer was never read")), 5000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A raw TCP server that answers each request on a connection with the next of `answers`, each
 * written in the given pieces with a pause between them (so the client reads a line in parts).
 */
function rawServer(answers: string[][]): { url: string; requests: string[]; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: string[] = [];
  const conns: Deno.Conn[] = [];
  (async () => {
    let next = 0;
    for await (const conn of listener) {
      conns.push(conn);
      (async () => {
        const buffer = new Uint8Array(65536);
        try {
          while (next < answers.length) {
            const n = await conn.read(buffer);
            if (n === null) return;
            requests.push(new TextDecoder().decode(buffer.subarray(0, n)));
            for (const piece of answers[next++]) {
              await conn.write(encoder.encode(piece));
              await new Promise((ok) => setTimeout(ok, 5));
            }
            if (answers[next - 1].join("").includes("connection: close")) return conn.close();
          }
        } catch {
          // closed by the test
        }
      })();
    }
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
    },
  };
}

Deno.test("lean client: reads chunked and sized answers on one kept-alive connection, lines split across reads", async () => {
  const server = rawServer([
    [
      "HTTP/1.1 201 Created\r\ntransfer-",
      "encoding: chunked\r\n\r\n5\r\nhello\r",
      "\n6\r\n world\r\n0\r\n\r\n",
    ],
    ["HTTP/1.1 401 Unauthorized\r\ncontent-length: 2\r\n\r\n", "{}"],
    ["HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"],
  ]);
  const client = new LeanClient(server.url, { cookie: "sid=abc" });
  try {
    const first = await within(client.post("/api/x", { a: 1 }, { "idempotency-key": "k1" }));
    assert.equal(first.status, 201);
    assert.equal(textOf(first), "hello world");
    const second = await within(client.get("/api/y"));
    assert.equal(second.status, 401);
    assert.equal(textOf(second), "{}");
    const third = await within(client.get("/api/z"));
    assert.equal(third.status, 200);
    assert.equal(third.body.length, 0);
    assert.match(server.requests[0], /^POST \/api\/x HTTP\/1\.1\r\n/);
    assert.match(server.requests[0], /\r\ncookie: sid=abc\r\n/);
    assert.match(server.requests[0], /\r\nidempotency-key: k1\r\n/);
    assert.match(server.requests[0], /\r\ncontent-length: 7\r\n\r\n\{"a":1\}$/);
    assert.match(server.requests[1], /^GET \/api\/y HTTP\/1\.1\r\n/);
  } finally {
    client.close();
    server.close();
  }
});

Deno.test("lean client: opens a new connection after the server said connection: close", async () => {
  const server = rawServer([
    ["HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 1\r\n\r\na"],
    ["HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nb"],
  ]);
  const client = new LeanClient(server.url);
  try {
    assert.equal(textOf(await within(client.get("/"))), "a");
    assert.equal(textOf(await within(client.get("/"))), "b");
  } finally {
    client.close();
    server.close();
  }
});

Deno.test("lean client: a read that ends at a line's end, then a shorter line (the buffer starts over)", async () => {
  const server = rawServer([
    [`HTTP/1.1 200 OK\r\nx-padding: ${"p".repeat(80)}\r\n`, "content-length: 2\r\n\r\nok"],
  ]);
  const client = new LeanClient(server.url);
  try {
    assert.equal(textOf(await within(client.get("/"))), "ok");
  } finally {
    client.close();
    server.close();
  }
});
