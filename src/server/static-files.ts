import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Buffer } from "node:buffer";
import {
  compressedForms,
  type Encoding,
  isCompressible,
  preferredEncoding,
} from "./compression.ts";

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
  /**
   * Its br and gzip forms: read from the build's precompressed files, else made on first request
   * at a fast setting; none for images and fonts.
   */
  compressed?: ReturnType<typeof compressedForms>;
}

/** The file holding `path`'s form in `encoding`, written by `precompressClientFiles`. */
const PRECOMPRESSED: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/** Client files smaller than this are sent as they are (compressBody's threshold). */
const PRECOMPRESS_MIN_BYTES = 1024;

function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** True for a build's precompressed copy of another file (`x.js.br` beside `x.js`). */
function isPrecompressedCopy(path: string): boolean {
  return Object.values(PRECOMPRESSED).some((suffix) =>
    path.endsWith(suffix) && existsSync(path.slice(0, -suffix.length))
  );
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
  });
}

/**
 * Writes each compressible client file's brotli (quality 11) and gzip (level 9) forms beside it,
 * at build time: the most a file can shrink, paid once per build instead of by the server, where
 * compressing a megabyte bundle at these settings held the event loop for seconds on its first
 * request. Runs on zlib's thread pool. Returns how many files it compressed.
 */
export async function precompressClientFiles(clientDir: string): Promise<number> {
  if (!existsSync(clientDir)) return 0;
  const paths = walk(clientDir).filter((path) =>
    !isPrecompressedCopy(path) && isCompressible(contentTypeOf(path)) &&
    statSync(path).size >= PRECOMPRESS_MIN_BYTES
  );
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  await Promise.all(paths.map(async (path) => {
    const body = await readFile(path);
    const [brotli, gzipped] = await Promise.all([
      br(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gz(body, { level: 9 }),
    ]);
    await writeFile(path + PRECOMPRESSED.br, brotli);
    await writeFile(path + PRECOMPRESSED.gzip, gzipped);
  }));
  return paths.length;
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
    if (isPrecompressedCopy(path)) continue;
    const stat = statSync(path);
    const urlPath = "/" + relative(clientDir, path).split(sep).join("/");
    files.set(urlPath, {
      path,
      size: stat.size,
      type: contentTypeOf(path),
      etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      // Astro puts content-hashed bundles under /_astro/: their names change with their content.
      cacheControl: urlPath.startsWith("/_astro/")
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
    });
    const file = files.get(urlPath)!;
    if (isCompressible(file.type)) {
      const made = compressedForms("fast", () => readFileSync(path));
      const ready = new Map<Encoding, Buffer>();
      file.compressed = (encoding) => {
        const copy = path + PRECOMPRESSED[encoding];
        if (!ready.has(encoding) && existsSync(copy)) ready.set(encoding, readFileSync(copy));
        return ready.get(encoding) ?? made(encoding);
      };
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
