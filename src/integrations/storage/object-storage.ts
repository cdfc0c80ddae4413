// Where admin-uploaded images live. The browser never sends files through our API: it asks for a
// presigned URL and PUTs the file there (spec §7), whether that is a bucket or our own /uploads/.

import { join } from "node:path";
import { type Config, publicOrigin } from "../../config.ts";
import { createLocalStorage, type LocalObjectStorage } from "./local.ts";
import { createS3Storage } from "./s3.ts";
import type { ObjectStorage, UploadRules } from "./types.ts";

function localStorageFor(config: Config, rules: UploadRules): LocalObjectStorage {
  return createLocalStorage({
    root: join(config.dataDir, "uploads"),
    baseUrl: publicOrigin(),
    appSecret: config.appSecret,
    rules,
  });
}

/**
 * The configured store. Local upload URLs point at this site's absolute base (publicOrigin);
 * `rules` are what the local store checks the bytes it receives against.
 */
export function getObjectStorage(config: Config, rules: UploadRules): ObjectStorage {
  return config.storage.kind === "s3"
    ? createS3Storage(config.storage)
    : localStorageFor(config, rules);
}

/** The store behind the app's /uploads/ route, or null when uploads go to a bucket. */
export function getLocalStorage(config: Config, rules: UploadRules): LocalObjectStorage | null {
  return config.storage.kind === "local" ? localStorageFor(config, rules) : null;
}
