import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import {
  compressedForms,
  type Encoding,
  isCompressible,
  preferredEncoding,
} from "./compression.ts";

/**
 * A cache for public pages that are the same for every visitor (the consumer storefront): a page
 * rendered for a GET is answered from memory for as long as `version()` gives the same answer, so
 * a crowd on the top-up page costs one render per catalogue change. `version()` is asked at most
 * once per `versionMaxAgeMs` (0: on every request), visits meanwhile sharing the answer, and again
 * at once when `localWrites()` (this process's own writes to what the pages are made of) moved: a
 * change made here shows on the next visit, one made by another instance within that age. Only pages whose HTML reads neither cookies nor the query
 * string belong here: a visitor's cookies (a signed-in admin looking at the shop) and a shared
 * link's query (`?fbclid=…`, `?utm_source=…`) get the same page from memory. An answer other than
 * a 200 without Set-Cookie is never stored, so a path that does not name a page (a 404) is not
 * kept however many are asked for.
 */
export interface PageCache {
  /** Resolves true when it answered (from memory, or through `render`, storing the page). */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    render: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<boolean>;
}

interface Page {
  version: string;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** Its br and gzip forms, made on the first visit that accepts them. */
  compressed: (encoding: Encoding) => Buffer | null;
}

export function createPageCache(
  cacheable: (path: string) => boolean,
  version: () => Promise<string>,
  options: { versionMaxAgeMs?: number; localWrites?: () => number } = {},
): PageCache {
  const pages = new Map<string, Page>();
  const maxAgeMs = options.versionMaxAgeMs ?? 0;
  const localWrites = options.localWrites ?? (() => 0);
  let known: { at: number; writes: number; value: Promise<string> } | undefined;
  const currentVersion = () => {
    const now = performance.now();
    const writes = localWrites();
    if (!known || now - known.at >= maxAgeMs || writes !== known.writes) {
      const value = version();
      const asked = { at: now, writes, value };
      known = asked;
      // A failed read is not kept: the next visit asks again.
      value.catch(() => {
        if (known === asked) known = undefined;
      });
    }
    return known.value;
  };
  return {
    async handle(req, res, render) {
      const url = (req.url ?? "").split("?")[0];
      if (req.method !== "GET" || !cacheable(url)) return false;
      const current = await currentVersion();
      const page = pages.get(url);
      if (page?.version === current) {
        const encoding = isCompressible(String(page.headers["content-type"] ?? ""))
          ? preferredEncoding(req.headers["accept-encoding"])
          : null;
        const compressed = encoding ? page.compressed(encoding) : null;
        const headers = { ...page.headers, vary: "Accept-Encoding" };
        if (!compressed) {
          res.writeHead(200, headers).end(page.body);
          return true;
        }
        res.writeHead(200, {
          ...headers,
          "content-encoding": encoding!,
          "content-length": compressed.length,
        }).end(compressed);
        return true;
      }
      capture(res, (headers, body) =>
        pages.set(url, {
          version: current,
          headers,
          body,
          compressed: compressedForms("fast", () => body),
        }));
      render(req, res);
      return true;
    },
  };
}

/**
 * Calls `store` with what the renderer sent on `res`, once it ends, when that was a 200 without
 * Set-Cookie. The headers are the renderer's as they stood before the body: those the server set
 * for this one request before rendering (its X-Request-Id) and those it adds while the body goes
 * out (its Content-Encoding) are not the page's, and a visit answered from memory gets its own.
 */
function capture(
  res: ServerResponse,
  store: (headers: OutgoingHttpHeaders, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown) => {
    if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk as Uint8Array));
  };
  // Headers given to writeHead are not kept where getHeaders() finds them: record them too.
  const given: OutgoingHttpHeaders = {};
  const serverSet = new Set(res.getHeaderNames());
  let rendered: OutgoingHttpHeaders | undefined;
  const snapshot = () =>
    rendered ??= Object.fromEntries(
      Object.entries({ ...res.getHeaders(), ...given }).filter(([name]) => !serverSet.has(name)),
    );
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((r) => r && typeof r === "object");
    const pairs = Array.isArray(headers)
      ? Array.from({ length: headers.length / 2 }, (_, i) => [headers[2 * i], headers[2 * i + 1]])
      : Object.entries(headers ?? {});
    for (const [k, v] of pairs) given[String(k).toLowerCase()] = v;
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    snapshot();
    keep(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    const headers = snapshot();
    keep(chunk);
    if (res.statusCode === 200 && !res.hasHeader("set-cookie") && !given["set-cookie"]) {
      store(headers, Buffer.concat(chunks));
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
}
