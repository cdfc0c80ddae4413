// The /api routes as the file tree declares them, for tests that must cover every route, including
// the ones added later.
import { join, relative } from "node:path";

const API_DIR = new URL("../../src/pages/api/", import.meta.url).pathname;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "ALL"] as const;

export interface ApiRoute {
  /** The route's file under src/pages/api, such as `reseller/[id]/orders.ts`. */
  file: string;
  method: string;
}

/** Every exported handler of every file under src/pages/api. */
export function scanApiRoutes(): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const full = join(dir, entry.name);
      if (entry.isDirectory) walk(full);
      else if (entry.name.endsWith(".ts")) {
        const file = relative(API_DIR, full);
        const source = Deno.readTextFileSync(full);
        for (const method of METHODS) {
          if (new RegExp(`export (const|async function|function) ${method}\\b`).test(source)) {
            routes.push({ file, method });
          }
        }
      }
    }
  };
  walk(API_DIR);
  return routes.sort((a, b) => `${a.file} ${a.method}`.localeCompare(`${b.file} ${b.method}`));
}

/** The URL of a route file, each `[param]` (or `[...rest]`) replaced by `fill(name, url)`. */
export function routeUrl(file: string, fill: (name: string, url: string) => string): string {
  const url = "/api/" + file.replace(/\.ts$/, "").replace(/(^|\/)index$/, "");
  return url.replace(/\[(\.\.\.)?(\w+)\]/g, (_, _rest, name: string) => fill(name, url));
}
