// Where admin-uploaded images live. The browser never sends files through our API: it asks for a
// presigned URL and PUTs the file there (spec §7), whether that is a bucket or our own /uploads/.

import { join } from "node:path";
import type { Config } from "../../config.ts";
import { createLocalStorage, type LocalObjectStorage } from "./local.ts";
import { createS3Storage } from "./s3.ts";
import type { ObjectStorage, UploadRules } from "./types.ts";

function localStorageFor(
  config: Config,
  siteUrl: string,
  rules: UploadRules,
): LocalObjectStorage {
  return createLocalStorage({
    root: join(config.dataDir, "uploads"),
    baseUrl: siteUrl,
    appSecret: config.appSecret,
    rules,
  });
}

/**
 * The configured store. `siteUrl` is this site's absolute base (`siteUrlOf`), where local upload
 * URLs point; `rules` are what the local store checks the bytes it receives against.
 */
export function getObjectStorage(
  config: Config,
  siteUrl: string,
  rules: UploadRules,
): ObjectStorage {
  return config.storage.kind === "s3"
    ? createS3Storage(config.storage)
    : localStorageFor(config, siteUrl, rules);
}

/** The store behind the app's /uploads/ route, or null when uploads go to a bucket. */
export function getLocalStorage(
  config: Config,
  siteUrl: string,
  rules: UploadRules,
): LocalObjectStorage | null {
  return config.storage.kind === "local" ? localStorageFor(config, siteUrl, rules) : null;
}
