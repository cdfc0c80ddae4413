// Rules for admin image uploads (spec §5, §7): which types are images, how object keys are made,
// and what the presigned-URL endpoint answers. The storage itself lives in src/integrations/storage.

import { ValidationError } from "../errors.ts";
import type { ObjectStorage, UploadRules } from "../../integrations/storage/types.ts";

/** Spec §5: the answer to any file that is not one of the accepted image types. */
export const INVALID_IMAGE_TEXT = "Please select a valid image file";

/** Upload URLs live five minutes: enough to start the PUT, short enough that a leaked one is stale. */
export const UPLOAD_URL_TTL_SECONDS = 300;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

function hasBytesAt(bytes: Uint8Array, offset: number, expected: number[]): boolean {
  return expected.every((b, i) => bytes[offset + i] === b);
}

/** AVIF is an ISO-BMFF file whose `ftyp` box lists the `avif` or `avis` brand. */
function isAvif(bytes: Uint8Array): boolean {
  if (!hasBytesAt(bytes, 4, ascii("ftyp"))) return false;
  const boxEnd = Math.min(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), bytes.length);
  for (let at = 8; at + 4 <= boxEnd; at += 4) {
    if (hasBytesAt(bytes, at, ascii("avif")) || hasBytesAt(bytes, at, ascii("avis"))) return true;
  }
  return false;
}

// SVG is left out on purpose: it can carry script, and local uploads are served from our origin.
const IMAGE_TYPES: Record<string, { extension: string; matches: (bytes: Uint8Array) => boolean }> =
  {
    "image/png": {
      extension: "png",
      matches: (b) => hasBytesAt(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    },
    "image/jpeg": { extension: "jpg", matches: (b) => hasBytesAt(b, 0, [0xff, 0xd8, 0xff]) },
    "image/webp": {
      extension: "webp",
      matches: (b) => hasBytesAt(b, 0, ascii("RIFF")) && hasBytesAt(b, 8, ascii("WEBP")),
    },
    "image/gif": { extension: "gif", matches: (b) => hasBytesAt(b, 0, ascii("GIF8")) },
    "image/avif": { extension: "avif", matches: isAvif },
  };

const KEY_PREFIX = "games/";
const MAX_NAME_CHARS = 60;
const UPLOAD_KEY = new RegExp(
  `^${KEY_PREFIX}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}` +
    `-[a-z0-9]+(?:-[a-z0-9]+)*\\.(?:${
      Object.values(IMAGE_TYPES).map((t) => t.extension).join("|")
    })$`,
);

/** The client's file name reduced to a lowercase ASCII slug: no path, no dots, no extension. */
function slugOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "");
  const slug = base.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").slice(0, MAX_NAME_CHARS).replace(/^-+|-+$/g, "");
  return slug || "image";
}

/**
 * A new object key for an uploaded image, `games/<uuid>-<slug>.<extension of the type>`. The server
 * makes every key, so no client path reaches storage; an unaccepted type is the spec's 400.
 */
export function newUploadKey(
  fileName: string,
  fileType: string,
  id: string = crypto.randomUUID(),
): string {
  const type = IMAGE_TYPES[fileType];
  if (!type) throw new ValidationError(INVALID_IMAGE_TEXT);
  return `${KEY_PREFIX}${id}-${slugOf(fileName)}.${type.extension}`;
}

/** True for keys shaped as `newUploadKey` makes them; anything else never touches the disk. */
export function isUploadKey(key: string): boolean {
  return UPLOAD_KEY.test(key);
}

/** The content type an upload key was made for, from its extension. */
export function contentTypeOfKey(key: string): string | undefined {
  const extension = key.slice(key.lastIndexOf(".") + 1);
  return Object.keys(IMAGE_TYPES).find((t) => IMAGE_TYPES[t].extension === extension);
}

/** True when `bytes` start the way a file of the accepted image `type` starts. */
export function isImageOfType(bytes: Uint8Array, type: string): boolean {
  return IMAGE_TYPES[type]?.matches(bytes) ?? false;
}

/** The rules a store that receives uploads itself (the local store) checks them against. */
export const UPLOAD_RULES: UploadRules = {
  isUploadKey,
  isImageOfType,
  maxBytes: MAX_UPLOAD_BYTES,
  invalidImageText: INVALID_IMAGE_TEXT,
};

/** What POST /generate-s3-bucket-url answers. */
export interface ImageUpload {
  /** Where the browser PUTs the file, with its type as Content-Type, within five minutes. */
  presignedUrl: string;
  /** Where the image is read from: the presigned URL without its query, unless a CDN is set. */
  imageUrl: string;
}

/** Makes a key for an admin's image and a URL to upload it to (spec §7). */
export async function createImageUpload(
  storage: ObjectStorage,
  input: { fileName: string; fileType: string },
): Promise<ImageUpload> {
  const key = newUploadKey(input.fileName, input.fileType);
  const presignedUrl = await storage.presignPut(key, input.fileType, UPLOAD_URL_TTL_SECONDS);
  return { presignedUrl, imageUrl: storage.publicUrl(key) ?? presignedUrl.split("?")[0] };
}
