// Compressed answers for what is sent whole from memory or disk: the build's client files and the
// cached consumer pages. Brotli or gzip, as the client's Accept-Encoding allows (RFC 9110 §12.5.3,
// q=0 refuses); images and fonts are already compressed and go as they are.

import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Buffer } from "node:buffer";

export type Encoding = "br" | "gzip";

/** Bodies smaller than this gain less than the header costs. */
const MIN_BYTES = 1024;

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/** True for a content type whose bodies shrink when compressed (text, scripts, JSON, SVG). */
export function isCompressible(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType.toLowerCase());
}

/** The encoding to answer with: br, else gzip, when the client accepts it (q > 0); else null. */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : acceptEncoding ?? "";
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    quality.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: Encoding) => (quality.get(name) ?? quality.get("*") ?? 0) > 0;
  return accepts("br") ? "br" : accepts("gzip") ? "gzip" : null;
}

/**
 * `body` in `encoding`, or null when it is too small to be worth it. `effort` "max" for files
 * compressed once per build; "fast" for pages compressed once per catalogue change.
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
