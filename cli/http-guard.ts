// What the HTTP server does before a request reaches the app, so that a client cannot hold a
// worker or its memory: Deno's node:http ignores headersTimeout, requestTimeout and friends, so the
// time limits are kept here, per connection, and the body is read here, within its size limit.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { bodyLimitFor, errorResponseFor } from "../src/server/http.ts";
import {
  PayloadTooLargeError,
  RequestTimeoutError,
  ValidationError,
} from "../src/domain/errors.ts";

export interface HttpLimits {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * Bytes still read and thrown away after a refusal, so that the client reads the answer: closing
 * with its body unread resets the connection, and a reset can reach the client before it has read
 * the answer. Above the largest body limit (inbound mail's 10 MiB), so a body just over any limit
 * is read to its end and answered cleanly.
 */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 5000;

const timers = new WeakMap<Socket, ReturnType<typeof setTimeout>>();
/** Requests of a connection not yet answered (pipelined requests can overlap). */
const inFlight = new WeakMap<Socket, number>();
/** Each guarded server's open connections. */
const connections = new WeakMap<Server, Set<Socket>>();

function armTimer(socket: Socket, ms: number): void {
  clearTimeout(timers.get(socket));
  timers.set(socket, setTimeout(() => socket.destroy(), ms));
}

/**
 * Closes connections that do not send a complete request head in time: from connecting, and on a
 * kept-alive connection from the previous answer (the idle limit).
 */
export function guardConnections(server: Server, limits: HttpLimits): void {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    armTimer(socket, limits.headersTimeoutMs);
    socket.once("close", () => {
      open.delete(socket);
      clearTimeout(timers.get(socket));
    });
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    clearTimeout(timers.get(socket));
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = inFlight.get(socket)! - 1;
      inFlight.set(socket, left);
      if (left === 0) armTimer(socket, limits.keepAliveTimeoutMs);
    });
  });
}

/**
 * Closes each connection of a guarded server that has no request in flight, one that has not sent
 * a request yet included: Deno's own `closeIdleConnections` leaves those open, and a stop then
 * waited for its whole grace (10 s after the demo's first start, whose catalogue calls to the
 * simulators left a connection the client opened and never used).
 */
export function closeIdleConnections(server: Server): void {
  for (const socket of connections.get(server) ?? []) {
    if (!inFlight.get(socket)) socket.destroy();
  }
}

/**
 * The methods the app answers. Any other (TRACE, CONNECT, PROPFIND …) gets a 405 before anything
 * renders: the runtime's Request refuses TRACE and CONNECT outright (a 500 and a stack in the log),
 * and a page would otherwise answer WebDAV verbs as if they were GET.
 */
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Answers 405 with an Allow header when the request's method is not one of HTTP_METHODS. */
export function refuseUnknownMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if ((HTTP_METHODS as readonly string[]).includes(req.method ?? "")) return false;
  const pathname = (req.url ?? "/").split("?")[0];
  const headers = { allow: HTTP_METHODS.join(", ") };
  const response = pathname.startsWith("/api/")
    ? Response.json({ error: `Method ${req.method} is not allowed` }, { status: 405, headers })
    : new Response("Method not allowed.", {
      status: 405,
      headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
    });
  refuse(req, res, response);
  return true;
}

// deno-lint-ignore no-control-regex -- control characters are exactly what this finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Answers 400 to a URL that does not decode or that decodes to control characters (a NUL byte
 * reaches no route and no database); an /api path in its JSON error shape. True when it did.
 */
export function refuseBadTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? "/";
  let problem: string | undefined;
  try {
    if (CONTROL_CHARACTER.test(decodeURI(target))) {
      problem = "The URL must not contain control characters";
    }
  } catch {
    problem = "Malformed URL";
  }
  if (!problem) return false;
  const pathname = target.split("?")[0];
  const response = pathname.startsWith("/api/")
    ? errorResponseFor(pathname, new ValidationError(problem))
    : new Response("Bad request.", {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  refuse(req, res, response);
  return true;
}

/**
 * Reads the whole request body within its path's size limit and the body time limit, and hands it
 * on as `req.body` (which the adapter takes instead of the stream). Over the limit, or too slow,
 * the client gets a JSON 413 or 408 and the connection is closed; the answer is then undefined and
 * the request must go no further.
 */
export async function readBodyWithinLimits(
  req: IncomingMessage,
  res: ServerResponse,
  limits: HttpLimits,
): Promise<Buffer<ArrayBuffer> | undefined> {
  const pathname = (req.url ?? "/").split("?")[0];
  const maxBytes = bodyLimitFor(pathname);
  const tooLarge = () => errorResponseFor(pathname, new PayloadTooLargeError(TOO_LARGE));
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) {
    refuse(req, res, tooLarge());
    return undefined;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const outcome = await new Promise<"ok" | "too-large" | "too-slow" | "gone">((done) => {
    const timer = setTimeout(() => finish("too-slow"), limits.bodyTimeoutMs);
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) finish("too-large");
      else chunks.push(chunk);
    };
    const onEnd = () => finish("ok");
    const onGone = () => finish("gone");
    const finish = (how: "ok" | "too-large" | "too-slow" | "gone") => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      done(how);
    };
    req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
  });
  if (outcome === "ok") return Buffer.concat(chunks, received);
  if (outcome === "too-large") refuse(req, res, tooLarge());
  if (outcome === "too-slow") {
    refuse(req, res, errorResponseFor(pathname, new RequestTimeoutError(TOO_SLOW)), false);
  }
  return undefined;
}

const TOO_LARGE = "Request body is too large";
const TOO_SLOW = "The request body did not arrive in time";

/**
 * Answers `response` and closes the connection. A body still arriving is first read and dropped,
 * up to a few MiB and seconds, so that a client still sending reads the answer instead of a reset;
 * a client too slow to send is answered at once.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  drain = true,
): void {
  let answered = false;
  const close = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    req.removeAllListeners("data");
    answer(res, response, { connection: "close" }).then(() => req.socket.destroy());
  };
  const timer = setTimeout(close, drain ? DRAIN_MS : 0);
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) close();
  });
  req.once("end", close).once("close", close);
  req.resume();
}

/** Writes a (small, JSON) web Response to a node response; resolves once it is sent. */
async function answer(
  res: ServerResponse,
  response: Response,
  headers: Record<string, string> = {},
): Promise<void> {
  const body = await response.text();
  if (!res.headersSent) {
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...headers });
  }
  await new Promise<void>((done) => res.end(body, done));
}
