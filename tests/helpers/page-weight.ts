// Page weight: the JavaScript each route makes the browser load, gzipped as a server would send it
// (default level, as `gzip -c FILE | wc -c`). Read from the server-rendered HTML (module scripts,
// module preloads, each island's component and renderer) and the static imports of those files in
// dist/client, plus the inline scripts (Astro's island bootstrap). Used by the page-weight bench
// and the budget test that `npm test` runs.
import { gzipSync } from "node:zlib";
import type { TestClient } from "./client.ts";

export type Area = "consumer" | "reseller" | "admin" | "reference";

/**
 * Budgets in bytes of gzipped JavaScript per route. The API reference is
 * Scalar's standalone bundle on its one page, counted in no other: about 1230 KiB gzipped at
 * 1.72.1, the first versions whose markup passes axe (1.69 and later) being over 1 MiB.
 */
export const BUDGETS: Record<Area, number> = {
  consumer: 30 * 1024,
  reseller: 150 * 1024,
  admin: 150 * 1024,
  reference: 1280 * 1024,
};

export interface Route {
  path: string;
  area: Area;
  /** Seen by a visitor, or by the signed-in reseller or admin. */
  as: "visitor" | "reseller" | "admin";
}

export const ROUTES: Route[] = [
  { path: "/consumers", area: "consumer", as: "visitor" },
  { path: "/consumers/mobile-legends", area: "consumer", as: "visitor" },
  // A generic game's page: a server dropdown, an EliteDias game of the demo.
  { path: "/consumers/genshin-impact", area: "consumer", as: "visitor" },
  { path: "/consumers/order", area: "consumer", as: "visitor" },
  { path: "/payment/success", area: "consumer", as: "visitor" },
  { path: "/resellers", area: "reseller", as: "visitor" },
  { path: "/resellers/home", area: "reseller", as: "reseller" },
  { path: "/resellers/api", area: "reference", as: "visitor" },
  { path: "/admin", area: "admin", as: "visitor" },
  { path: "/admin/home", area: "admin", as: "admin" },
];

export interface PageWeight extends Route {
  /** dist/client paths of every script file the page loads, entry points and their imports. */
  files: string[];
  raw: number;
  /** The files gzipped one by one. */
  gzipped: number;
  /** The inline scripts, gzipped together. */
  inlineGzipped: number;
  /** What the budget applies to: files plus inline scripts. */
  total: number;
}

const attr = (tag: string, name: string) =>
  tag.match(new RegExp(`\\s${name}="([^"]+)"`))?.[1]?.replaceAll("&amp;", "&");

/** The script URLs an HTML page loads at start, and its inline scripts' text. */
export function scriptsOf(html: string): { urls: string[]; inline: string } {
  const urls: string[] = [];
  let inline = "";
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = attr(m[1], "src");
    if (src) urls.push(src);
    else if (!/type="application\/(ld\+)?json"/.test(m[1])) inline += m[2];
  }
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    if (/rel="modulepreload"/.test(m[0])) urls.push(attr(m[0], "href")!);
  }
  for (const m of html.matchAll(/<astro-island\b[^>]*>/g)) {
    for (const name of ["component-url", "renderer-url"]) {
      const url = attr(m[0], name);
      if (url) urls.push(url);
    }
  }
  return { urls, inline };
}

const IMPORT =
  /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+\.m?js)["']|\bimport\(\s*["']([^"']+\.m?js)["']\s*\)/g;

/** `urls` and every file they import, transitively, as paths under dist/client. */
export async function withImports(urls: string[], clientDir = "dist/client"): Promise<string[]> {
  const seen = new Set<string>();
  const queue = urls.map((u) => new URL(u, "http://x/").pathname);
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const code = await Deno.readTextFile(`${clientDir}${path}`);
    for (const m of code.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith(".") || spec.startsWith("/")) {
        queue.push(new URL(spec, `http://x${path}`).pathname);
      }
    }
  }
  return [...seen].sort();
}

/** The weight of every route, each fetched by the client its `as` names. */
export async function measurePages(
  clients: Record<Route["as"], TestClient>,
): Promise<PageWeight[]> {
  const weights: PageWeight[] = [];
  for (const route of ROUTES) weights.push(await measurePage(clients[route.as], route));
  return weights;
}

async function measurePage(client: TestClient, route: Route): Promise<PageWeight> {
  const page = await client.get(route.path);
  if (page.status !== 200) throw new Error(`${route.path}: status ${page.status}`);
  const { urls, inline } = scriptsOf(page.text);
  const files = await withImports(urls);
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    const bytes = await Deno.readFile(`dist/client${file}`);
    raw += bytes.length;
    gzipped += gzipSync(bytes).length;
  }
  const inlineGzipped = inline.trim() ? gzipSync(new TextEncoder().encode(inline)).length : 0;
  return { ...route, files, raw, gzipped, inlineGzipped, total: gzipped + inlineGzipped };
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
