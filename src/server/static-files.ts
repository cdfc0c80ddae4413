import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { compressedForms, isCompressible, preferredEncoding } from "./compression.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".gif": "image/gif",
  ".html": "text/html; charset=utf-8",
  ".ico": "image/x-icon",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".webp": "image/webp",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

interface StaticFile {
  path: string;
  size: number;
  type: string;
  etag: string;
  cacheControl: string;
  /** Its br and gzip forms, made on first request; none for images and fonts. */
  compressed?: ReturnType<typeof compressedForms>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
  });
}

/**
 * Serves the build's client files (dist/client). The file list is read once at start-up: a build
 * never changes while it is served, and so no request that is not for one of these files (every
 * /api call) touches the file system on its way to the app.
 */
export function createStaticFiles(clientDir: string) {
  const files = new Map<string, StaticFile>();
  let dirExists = true;
  try {
    statSync(clientDir);
  } catch {
    dirExists = false;
  }
  for (const path of dirExists ? walk(clientDir) : []) {
    const stat = statSync(path);
    const urlPath = "/" + relative(clientDir, path).split(sep).join("/");
    files.set(urlPath, {
      path,
      size: stat.size,
      type: CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
      etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      // Astro puts content-hashed bundles under /_astro/: their names change with their content.
      cacheControl: urlPath.startsWith("/_astro/")
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
    });
    const file = files.get(urlPath)!;
    if (isCompressible(file.type)) {
      file.compressed = compressedForms("max", () => readFileSync(path));
    }
  }

  return {
    count: files.size,
    /** Answers a GET or HEAD for a known file and returns true; otherwise returns false. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const url = req.url ?? "/";
      const end = url.search(/[?#]/);
      const file = files.get(end === -1 ? url : url.slice(0, end));
      if (!file) return false;
      res.setHeader("Cache-Control", file.cacheControl);
      const encoding = file.compressed ? preferredEncoding(req.headers["accept-encoding"]) : null;
      const body = encoding ? file.compressed!(encoding) : null;
      // Each form has its own tag, so a cache never answers one encoding's 304 for another.
      const etag = body ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
      if (file.compressed) res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("ETag", etag);
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304).end();
        return true;
      }
      if (body) {
        res.writeHead(200, {
          "Content-Type": file.type,
          "Content-Length": body.length,
          "Content-Encoding": encoding!,
        });
        res.end(req.method === "HEAD" ? undefined : body);
        return true;
      }
      res.writeHead(200, { "Content-Type": file.type, "Content-Length": file.size });
      if (req.method === "HEAD") {
        res.end();
        return true;
      }
      const stream = createReadStream(file.path);
      stream.on("error", () => res.destroy());
      stream.pipe(res);
      return true;
    },
  };
}
