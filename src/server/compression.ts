// Compressed answers, brotli or gzip as the client's Accept-Encoding allows (RFC 9110 §12.5.3,
// q=0 refuses): what is sent whole from memory or disk (the build's client files, the cached
// consumer pages) compressed once, and what the app renders per request (pages, JSON) once it is
// whole. Images and fonts are already compressed and go as they are.

import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { Buffer } from "node:buffer";

export type Encoding = "br" | "gzip";

/** Bodies smaller than this gain less than the header costs. */
const MIN_BYTES = 1024;

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/** True for a content type whose bodies shrink when compressed (text, scripts, JSON, SVG). */
export function isCompressible(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType.toLowerCase());
}

/**
 * The encoding to answer with: the first of `order` (br, then gzip) the client accepts (q > 0);
 * else null.
 */
export function preferredEncoding(
  acceptEncoding: string | string[] | undefined,
  order: readonly Encoding[] = ["br", "gzip"],
): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding ?? "";
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    quality.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: Encoding) => (quality.get(name) ?? quality.get("*") ?? 0) > 0;
  return order.find(accepts) ?? null;
}

/**
 * `body` in `encoding`, or null when it is too small to be worth it. `effort` "max" for files
 * compressed once per build; "fast" for pages compressed once per catalogue change and for the
 * answers compressed per request.
 */
export function compressBody(
  body: Buffer,
  encoding: Encoding,
  effort: "max" | "fast",
): Buffer | null {
  if (body.length < MIN_BYTES) return null;
  return encoding === "br"
    ? brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: effort === "max" ? 11 : 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
    : gzipSync(body, { level: effort === "max" ? 9 : 6 });
}

/**
 * A body's compressed forms, each made at most once (the body read with `load` then): the first
 * client asking for br or gzip pays for it, the others are answered from memory.
 */
export function compressedForms(
  effort: "max" | "fast",
  load: () => Buffer,
): (encoding: Encoding) => Buffer | null {
  const made = new Map<Encoding, Buffer | null>();
  return (encoding) => {
    if (!made.has(encoding)) made.set(encoding, compressBody(load(), encoding, effort));
    return made.get(encoding)!;
  };
}

/** What the app renders per request that is worth compressing: pages and JSON answers. */
const RENDERED = /^(text\/html|application\/json)/;

/**
 * Compressing per request costs CPU on every answer: gzip first, which took a third to a half of
 * brotli's CPU (0.07-0.21 ms an answer against 0.2-0.6 ms) for answers 10-15 % larger
 * (`npm run bench -- compression`, bench/RESULTS.md).
 */
const PER_REQUEST_ORDER = ["gzip", "br"] as const;

/**
 * Compresses the answer the app renders on `res` when the client accepts gzip or br: HTML and
 * JSON of MIN_BYTES or more, at compressBody's "fast" levels. The body is held until it ends and
 * compressed whole, with its length: an /api route writes its JSON in one piece anyway, a page is
 * tens of KiB written in many small pieces, and Deno's streaming compressors cost several times
 * the CPU of the one-shot ones (brotli on a 10 KiB page: 3-4 ms against 0.6-0.9 ms).
 * Left alone: HEAD, 204, 304, an answer already encoded (the page cache's stored forms), one whose
 * Cache-Control says no-transform, and other types (the XLSX exports stream). No route answers an
 * event stream or a long poll, whose pieces must reach the client as written; such a route would
 * need a type outside RENDERED or no-transform. Every HTML or JSON answer says Vary:
 * Accept-Encoding, compressed or not.
 */
export function compressAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === "HEAD") return;
  const encoding = preferredEncoding(req.headers["accept-encoding"], PER_REQUEST_ORDER);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let state: "undecided" | "holding" | "passing" = "undecided";
  const held: Buffer[] = [];
  const callbacks: (() => void)[] = [];

  // The status and headers wait on `res` until the body shows whether it is compressed: the
  // real end sends them.
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (state !== "undecided") return writeHead(status, ...rest);
    res.statusCode = status;
    if (typeof rest[0] === "string") res.statusMessage = rest.shift() as string;
    const headers = rest[0];
    const pairs = Array.isArray(headers)
      ? Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i], headers[2 * i + 1]])
      : Object.entries(headers ?? {});
    for (const [name, value] of pairs) res.setHeader(String(name), value);
    return res;
  }) as typeof res.writeHead;

  const decide = () => {
    if (state !== "undecided") return;
    state = "passing";
    if (!RENDERED.test(String(res.getHeader("content-type") ?? "").toLowerCase())) return;
    addVary(res);
    const status = res.statusCode;
    const noTransform = /no-transform/i.test(String(res.getHeader("cache-control") ?? ""));
    if (!encoding || status < 200 || status === 204 || status === 304) return;
    if (res.hasHeader("content-encoding") || noTransform) return;
    state = "holding";
  };

  const hold = (chunk: unknown, rest: unknown[]) => {
    const { buffer, done } = bodyArgs(chunk, rest);
    held.push(buffer);
    if (done) callbacks.push(done);
  };

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    decide();
    if (state === "passing") return write(chunk, ...rest);
    hold(chunk, rest);
    return true;
  }) as typeof res.write;

  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    decide();
    if (state === "passing") return end(chunk, ...rest);
    hold(chunk, rest);
    const body = Buffer.concat(held);
    const compressed = compressBody(body, encoding!, "fast");
    if (compressed) res.setHeader("content-encoding", encoding!);
    res.setHeader("content-length", (compressed ?? body).length);
    return end(compressed ?? body, () => callbacks.forEach((done) => done()));
  }) as typeof res.end;
}

/** A write's or end's chunk as bytes, and its callback, from Node's optional arguments. */
function bodyArgs(chunk: unknown, rest: unknown[]): { buffer: Buffer; done?: () => void } {
  const done = [chunk, ...rest].find((a) => typeof a === "function") as (() => void) | undefined;
  const encoding = rest.find((a) => typeof a === "string") as BufferEncoding | undefined;
  if (chunk === undefined || chunk === null || typeof chunk === "function") {
    return { buffer: Buffer.alloc(0), done };
  }
  return {
    buffer: typeof chunk === "string"
      ? Buffer.from(chunk, encoding ?? "utf8")
      : Buffer.from(chunk as Uint8Array),
    done,
  };
}

/** Adds Accept-Encoding to the answer's Vary, once. */
function addVary(res: ServerResponse): void {
  const vary = String(res.getHeader("vary") ?? "");
  const names = vary.split(",").map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (names.includes("*") || names.includes("accept-encoding")) return;
  res.setHeader("vary", names.length ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}
