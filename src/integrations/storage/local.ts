// The default store: files under `${DATA_DIR}/uploads`, written and read through the app's own
// /uploads/ route. It behaves like a bucket with presigned PUT URLs, so the admin console uploads
// the same way whichever store is configured.

import { Buffer } from "node:buffer";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { dirname, join } from "node:path";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from "../../domain/errors.ts";
import type { ObjectStorage, UploadRules } from "./types.ts";

/** How to build a local store. */
export interface LocalStorageOptions {
  /** Folder holding the objects, `${DATA_DIR}/uploads`. */
  root: string;
  /** This site's absolute base, which upload URLs point at (PUBLIC_URL in production). */
  baseUrl: string;
  /** When set, the URL signing key is derived from it; otherwise a key file in `root` is used. */
  appSecret?: string;
  /** The upload rules the received bytes are checked against. */
  rules: UploadRules;
  /** Clock, ms since epoch. */
  now?: () => number;
}

/** The local store: the ObjectStorage side plus what the /uploads/ route serves with. */
export interface LocalObjectStorage extends ObjectStorage {
  /** Checks a PUT to an upload URL and stores its body under `key`, once. */
  acceptPut(key: string, request: Request): Promise<void>;
  /** The stored bytes of `key`, or null when there are none. */
  read(key: string): Promise<Uint8Array<ArrayBuffer> | null>;
}

/** The fields an upload URL's signature covers. */
export interface SignedUpload {
  key: string;
  contentType: string;
  /** Unix seconds, as written in the URL. */
  expires: string;
}

/** The hex HMAC-SHA256 that authorises one PUT of `contentType` at `key` until `expires`. */
export function signUpload(signingKey: Uint8Array, upload: SignedUpload): string {
  return createHmac("sha256", signingKey)
    .update(`PUT\n${upload.key}\n${upload.contentType}\n${upload.expires}`)
    .digest("hex");
}

/**
 * Checks an upload URL's signature against the PUT as it arrived. The signature is checked before
 * the expiry so that "expired" is only ever said about a URL we issued.
 */
export function verifyUpload(
  signingKey: Uint8Array,
  upload: SignedUpload,
  signature: string,
  now: number,
): "ok" | "expired" | "invalid" {
  if (!/^\d{1,12}$/.test(upload.expires) || !/^[0-9a-f]{64}$/.test(signature)) return "invalid";
  const expected = Buffer.from(signUpload(signingKey, upload), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "invalid";
  return Number(upload.expires) * 1000 < now ? "expired" : "ok";
}

/**
 * Writes `bytes` to `path` only if nothing is there: the file appears whole or not at all (a
 * temporary file hard-linked into place), and an existing file is never replaced. Returns false
 * when `path` already existed.
 */
async function writeOnce(path: string, bytes: Uint8Array, mode: number): Promise<boolean> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeFile(temporary, bytes, { createNew: true, mode });
  try {
    await Deno.link(temporary, path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  } finally {
    await Deno.remove(temporary);
  }
}

const SIGNING_KEY_FILE = ".signing-key";
const keyFiles = new Map<string, Promise<Uint8Array>>();

/**
 * The key upload URLs are signed with. APP_SECRET, when set, is the one secret an operator already
 * manages and shares between instances; the key is derived from it under its own label so it is
 * never the same key as the TOTP box's. Without it, a random key is kept next to the files it
 * guards: every instance that serves these files reads them from the same folder and so agrees
 * on the key, and losing the folder loses nothing more than the files.
 */
function signingKeyFor(root: string, appSecret: string | undefined): Promise<Uint8Array> {
  if (appSecret) {
    return Promise.resolve(createHmac("sha256", appSecret).update("upload-url-signing").digest());
  }
  let key = keyFiles.get(root);
  if (!key) {
    key = readOrCreateKeyFile(join(root, SIGNING_KEY_FILE));
    key.catch(() => keyFiles.delete(root));
    keyFiles.set(root, key);
  }
  return key;
}

async function readOrCreateKeyFile(path: string): Promise<Uint8Array> {
  // Whoever links first wins; everyone, the winner included, then reads the same file.
  await writeOnce(path, new TextEncoder().encode(randomBytes(32).toString("hex")), 0o600);
  const text = (await Deno.readTextFile(path)).trim();
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new Error(`${path} does not hold an upload signing key; delete it to make a new one`);
  }
  return Buffer.from(text, "hex");
}

/** Reads a request body, refusing it as soon as it passes `limit` bytes. */
async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new PayloadTooLargeError(`Images can be at most ${limit / 1024 / 1024} MiB`);
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A store of files under `options.root`. */
export function createLocalStorage(options: LocalStorageOptions): LocalObjectStorage {
  const { root, baseUrl, appSecret, rules } = options;
  const now = options.now ?? Date.now;
  const signingKey = () => signingKeyFor(root, appSecret);
  // Only keys shaped like the ones we make reach the disk, so no path can leave `root`.
  const pathOf = (key: string) => rules.isUploadKey(key) ? join(root, key) : null;

  return {
    async presignPut(key, contentType, expiresSeconds) {
      const expires = String(Math.floor(now() / 1000) + expiresSeconds);
      const signature = signUpload(await signingKey(), { key, contentType, expires });
      return `${baseUrl}/uploads/${key}?expires=${expires}&signature=${signature}`;
    },

    publicUrl: () => undefined,

    async acceptPut(key, request) {
      const path = pathOf(key);
      if (!path) throw new NotFoundError("Not found");
      const query = new URL(request.url).searchParams;
      const contentType = request.headers.get("content-type") ?? "";
      const verdict = verifyUpload(
        await signingKey(),
        { key, contentType, expires: query.get("expires") ?? "" },
        query.get("signature") ?? "",
        now(),
      );
      if (verdict === "expired") throw new ForbiddenError("This upload link has expired");
      if (verdict === "invalid") throw new ForbiddenError("This upload link is not valid");
      const bytes = await readBody(request, rules.maxBytes);
      if (!rules.isImageOfType(bytes, contentType)) {
        throw new ValidationError(rules.invalidImageText);
      }
      // Objects are served as immutable for a year, so a key is written once.
      if (!await writeOnce(path, bytes, 0o644)) {
        throw new ConflictError("This upload link has already been used");
      }
    },

    async read(key) {
      const path = pathOf(key);
      if (!path) return null;
      try {
        return await Deno.readFile(path);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return null;
        throw error;
      }
    },
  };
}
