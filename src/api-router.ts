import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { APIContext, APIRoute, MiddlewareHandler } from "astro";
import { onRequest } from "./middleware.ts";
import { logger } from "./observability/log.ts";

/**
 * The lean path for /api: the route modules under src/pages/api, dispatched
 * without the page framework. The table is read from the same files Astro routes by, with its
 * precedence (static segments before [param] before [...rest]); each request runs the same
 * middleware (session, Origin check, size limit, headers, error mapping) and the route's own
 * handler, so both paths answer alike. A request whose route lacks the method goes to Astro.
 */
export interface ApiRouter {
  /**
   * Answers the request, whose body the server has already read within its limits, and resolves
   * true; or resolves false for the framework to serve it.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: Uint8Array<ArrayBuffer>,
  ): Promise<boolean>;
}

interface Route {
  pattern: RegExp;
  /** As Astro names it: `/api/orders/[id]`. */
  routePattern: string;
  names: string[];
  load: () => Promise<Record<string, unknown>>;
}

type Rank = number[];

/** Orders routes like Astro: per segment static (0) before [param] (1) before [...rest] (2). */
function compareRanks(a: Rank, b: Rank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === undefined) return 1;
    if (b[i] === undefined) return -1;
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return 0;
}

function routeOf(file: string, dir: URL): Route & { rank: Rank } {
  const segments = ["api", ...file.replace(/\.ts$/, "").replace(/\/index$/, "").split("/")];
  const names: string[] = [];
  const rank: Rank = [];
  const parts = segments.map((segment) => {
    const rest = segment.match(/^\[\.\.\.(\w+)\]$/);
    if (rest) {
      names.push(rest[1]);
      rank.push(2);
      return "(?:/(.*))?";
    }
    const param = segment.match(/^\[(\w+)\]$/);
    if (param) {
      names.push(param[1]);
      rank.push(1);
      return "/([^/]+)";
    }
    rank.push(0);
    return "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  let module: Promise<Record<string, unknown>> | undefined;
  return {
    pattern: new RegExp(`^${parts.join("")}$`),
    routePattern: `/${segments.join("/")}`,
    names,
    rank,
    load: () => module ??= import(new URL(file, dir).href),
  };
}

/** Astro matches a decoded path with its doubled slashes collapsed. */
function collapseSlashes(path: string): string {
  return path.replace(/\/{2,}/g, "/");
}

function listRoutes(dir: URL, prefix = ""): string[] {
  return [...Deno.readDirSync(new URL(prefix, dir))].flatMap((entry) =>
    entry.isDirectory
      ? listRoutes(dir, `${prefix}${entry.name}/`)
      : entry.name.endsWith(".ts")
      ? [`${prefix}${entry.name}`]
      : []
  );
}

/** The cookies an API route reads and sets: Astro's `get`, `set` and `delete`, as headers. */
class ApiCookies {
  readonly #sent = new Map<string, string>();
  readonly #received: Map<string, string>;

  constructor(header: string | undefined) {
    this.#received = new Map(
      (header ?? "").split(";").flatMap((pair) => {
        const at = pair.indexOf("=");
        if (at < 0) return [];
        const value = pair.slice(at + 1).trim();
        try {
          return [[pair.slice(0, at).trim(), decodeURIComponent(value)] as const];
        } catch {
          return [[pair.slice(0, at).trim(), value] as const];
        }
      }),
    );
  }

  get(name: string): { value: string } | undefined {
    const value = this.#received.get(name);
    return value === undefined ? undefined : { value };
  }

  set(
    name: string,
    value: string,
    options: {
      path?: string;
      httpOnly?: boolean;
      sameSite?: string;
      secure?: boolean;
      maxAge?: number;
    } = {},
  ): void {
    const attributes = [`${name}=${encodeURIComponent(value)}`];
    if (options.path) attributes.push(`Path=${options.path}`);
    if (options.maxAge !== undefined) attributes.push(`Max-Age=${options.maxAge}`);
    if (options.httpOnly) attributes.push("HttpOnly");
    if (options.sameSite) {
      attributes.push(`SameSite=${options.sameSite[0].toUpperCase()}${options.sameSite.slice(1)}`);
    }
    if (options.secure) attributes.push("Secure");
    this.#sent.set(name, attributes.join("; "));
  }

  delete(name: string, options: { path?: string } = {}): void {
    const path = options.path ? `; Path=${options.path}` : "";
    this.#sent.set(
      name,
      `${name}=deleted; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0${path}`,
    );
  }

  headers(): string[] {
    return [...this.#sent.values()];
  }
}

function requestOf(req: IncomingMessage, body: Uint8Array<ArrayBuffer>): Request {
  const url = `http://${req.headers.host ?? "localhost"}${req.url}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) { for (const v of value) headers.append(name, v); }
    else if (value !== undefined) headers.set(name, value);
  }
  const bodyless = req.method === "GET" || req.method === "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: bodyless ? undefined : body,
  });
}

async function send(res: ServerResponse, response: Response, cookies: ApiCookies) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const setCookies = [...response.headers.getSetCookie(), ...cookies.headers()];
  if (setCookies.length) res.setHeader("set-cookie", setCookies);
  if (!response.body) return void res.end();
  // A JSON answer is small and whole: one write, with its Content-Length, costs far less than a
  // stream piped through node:stream. Files (the exports) stream.
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    return void res.end(new Uint8Array(await response.arrayBuffer()));
  }
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream)
    .on("error", () => res.destroy())
    .pipe(res);
}

export function createApiRouter(
  middleware: MiddlewareHandler = onRequest,
  dir = new URL("./pages/api/", import.meta.url),
): ApiRouter {
  const routes = listRoutes(dir).map((file) => routeOf(file, dir))
    .sort((a, b) => compareRanks(a.rank, b.rank));

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: Uint8Array<ArrayBuffer>,
    path: string,
    handler: APIRoute,
    params: Record<string, string | undefined>,
    routePattern: string,
  ) {
    const request = requestOf(req, body);
    const url = new URL(request.url);
    // The middleware and the route see the path that was matched, as Astro shows its own.
    url.pathname = path;
    const cookies = new ApiCookies(req.headers.cookie);
    // The subset of Astro's context that the middleware and the API routes use.
    const context = {
      request,
      url,
      params,
      routePattern,
      locals: {},
      cookies,
      clientAddress: req.socket.remoteAddress ?? "",
      redirect: (location: string, status = 302) =>
        new Response(null, { status, headers: { location } }),
    } as unknown as APIContext;
    const response = await middleware(context, () => Promise.resolve(handler(context)));
    await send(res, response as Response, cookies);
  }

  return {
    async handle(req, res, body) {
      if (!req.url?.startsWith("/api/")) return false;
      const path = collapseSlashes(decodeURI(req.url.split("?")[0]));
      // trailingSlash "never" (astro.config.mjs): Astro redirects /api/x/ to /api/x.
      if (path.endsWith("/")) return false;
      for (const route of routes) {
        const match = route.pattern.exec(path);
        if (!match) continue;
        const module = await route.load();
        const handler = (module[req.method ?? "GET"] ?? module.ALL) as APIRoute | undefined;
        if (!handler) return false;
        const params = Object.fromEntries(route.names.map((n, i) => [n, match[i + 1]]));
        try {
          await serve(req, res, body, path, handler, params, route.routePattern);
        } catch (error) {
          // The middleware maps every error of a route; this is a failure of the plumbing itself.
          logger().error({ msg: "api", err: error });
          if (!res.headersSent) res.writeHead(500);
          res.end();
        }
        return true;
      }
      return false;
    },
  };
}
