// A slow client cannot hold the server: a connection that never finishes its
// request head, a body that trickles or stalls, and an idle kept-alive connection are each cut off
// by the server's own time limits (Deno's node:http ignores headersTimeout and requestTimeout),
// while other clients keep being answered. A body over the limit is a JSON 413 however it is sent.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): connection
// limits are the HTTP server's, whatever the database.
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
/** Far above the server's limits below: a connection still open by then was not cut off. */
const GIVE_UP_MS = 20_000;

interface RawConnection {
  socket: Socket;
  /** Everything the server sent, once it closed the connection; rejects if it never does. */
  closed: Promise<string>;
}

function open(base: string, first: string, trickle?: string): RawConnection {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let received = "";
  let timer: ReturnType<typeof setInterval> | undefined;
  const closed = new Promise<string>((done, fail) => {
    const giveUp = setTimeout(() => {
      socket.destroy();
      fail(new Error(`still open after ${GIVE_UP_MS} ms: ${JSON.stringify(first.slice(0, 60))}`));
    }, GIVE_UP_MS);
    socket.on("data", (d) => received += d);
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      clearInterval(timer);
      done(received);
    });
  });
  socket.write(first);
  if (trickle) timer = setInterval(() => socket.writable && socket.write(trickle), 200);
  return { socket, closed };
}

/** The status and JSON body of the one HTTP/1.1 answer in `raw` (chunked or not). */
function parseAnswer(raw: string): { status: number; json: { error: unknown } } {
  const status = Number(raw.match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  const json = body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1);
  return { status, json: JSON.parse(json) };
}

Deno.test({
  name: "[slow clients] stalled heads, trickled bodies and idle connections are cut off",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      HEADERS_TIMEOUT_MS: "1000",
      BODY_TIMEOUT_MS: "1500",
      KEEP_ALIVE_TIMEOUT_MS: "1000",
    });
    const login =
      "POST /api/login_reseller HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    try {
      await t.step("40 slow clients at once, and the server still answers others", async () => {
        const held = [
          ...Array.from({ length: 10 }, () => open(server.url, login)),
          ...Array.from(
            { length: 10 },
            () => open(server.url, `${login}Content-Length: 100000\r\n\r\n{"username":`, " "),
          ),
          ...Array.from(
            { length: 10 },
            () => open(server.url, `${login}Content-Length: 100\r\n\r\n{"user`),
          ),
          ...Array.from({ length: 10 }, () => open(server.url, "")),
        ];
        for (let i = 0; i < 20; i++) {
          const r = await fetch(new URL("/api/current_user", server.url), {
            signal: AbortSignal.timeout(GIVE_UP_MS),
          });
          assert.equal(r.status, 401);
          assert.equal((await r.json()).error, "Please sign in");
        }
        const answers = await Promise.all(held.map((c) => c.closed));
        // The unfinished heads and the silent connections are closed without an answer.
        for (const raw of [...answers.slice(0, 10), ...answers.slice(30)]) assert.equal(raw, "");
        // The trickled and the stalled bodies get a JSON 408 before the connection closes.
        for (const raw of answers.slice(10, 30)) {
          const answer = parseAnswer(raw);
          assert.equal(answer.status, 408, raw);
          assert.equal(answer.json.error, "The request body did not arrive in time");
        }
      });

      await t.step("a kept-alive connection left idle is closed after its answer", async () => {
        const c = open(server.url, "GET /api/current_user HTTP/1.1\r\nHost: x\r\n\r\n");
        assert.equal(parseAnswer(await c.closed).status, 401);
      });

      await t.step("a v1 body that stalls gets the reseller API's error shape", async () => {
        const c = open(
          server.url,
          "POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{",
        );
        const raw = await c.closed;
        const answer = parseAnswer(raw);
        assert.equal(answer.status, 408);
        // The error names the request as its X-Request-Id header does.
        const requestId = raw.match(/^x-request-id: (\S+)\r$/im)?.[1];
        assert.ok(requestId, raw.slice(0, 300));
        assert.deepEqual(answer.json.error, {
          code: "request_timeout",
          message: "The request body did not arrive in time",
          requestId,
        });
      });

      await t.step("a body over the limit is a JSON 413, declared or chunked", async () => {
        const declared = open(server.url, `${login}Content-Length: 5000000\r\n\r\n`);
        const answer = parseAnswer(await declared.closed);
        assert.equal(answer.status, 413);
        assert.equal(answer.json.error, "Request body is too large");
        let sent = 0;
        const chunked = await fetch(new URL("/api/login_reseller", server.url), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: new ReadableStream({
            pull(controller) {
              if ((sent += 65_536) > 3_000_000) return controller.close();
              controller.enqueue(new Uint8Array(65_536).fill(0x20));
            },
          }),
          signal: AbortSignal.timeout(GIVE_UP_MS),
        });
        assert.equal(chunked.status, 413);
        assert.equal((await chunked.json()).error, "Request body is too large");
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
