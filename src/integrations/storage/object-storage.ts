// Where admin-uploaded images live. The browser never sends files through our API: it asks for a
// presigned URL and PUTs the file there (spec §7), whether that is a bucket or our own /uploads/.

import { join } from "node:path";
import type { Config } from "../../config.ts";
import { createLocalStorage, type LocalObjectStorage } from "./local.ts";
import { createS3Storage } from "./s3.ts";

/** A store that hands out upload URLs. */
export interface ObjectStorage {
  /** A URL that accepts one PUT of a `contentType` body at `key` for `expiresSeconds`. */
  presignPut(key: string, contentType: string, expiresSeconds: number): Promise<string>;
  /**
   * Where `key` is read from when that is not the upload URL without its query (a CDN in front
   * of a bucket); undefined when it is.
   */
  publicUrl(key: string): string | undefined;
}

function localStorageFor(config: Config, requestOrigin: string): LocalObjectStorage {
  return createLocalStorage({
    root: join(config.dataDir, "uploads"),
    baseUrl: config.publicUrl ?? requestOrigin,
    appSecret: config.appSecret,
  });
}

/**
 * The configured store. `requestOrigin` is the origin the request came in on: local upload URLs
 * point there unless PUBLIC_URL says where the app is reached.
 */
export function getObjectStorage(config: Config, requestOrigin: string): ObjectStorage {
  return config.storage.kind === "s3"
    ? createS3Storage(config.storage)
    : localStorageFor(config, requestOrigin);
}

/** The store behind the app's /uploads/ route, or null when uploads go to a bucket. */
export function getLocalStorage(config: Config, requestOrigin: string): LocalObjectStorage | null {
  return config.storage.kind === "local" ? localStorageFor(config, requestOrigin) : null;
}
