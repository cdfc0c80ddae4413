// Any S3-compatible bucket (AWS S3, MinIO, Cloudflare R2 …). The browser PUTs straight to the
// bucket, so the bucket's CORS rules must allow PUT with a Content-Type header from our origin.

import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3StorageConfig } from "../../config.ts";
import type { ObjectStorage } from "./types.ts";

const clients = new WeakMap<S3StorageConfig, S3Client>();

function clientFor(config: S3StorageConfig): S3Client {
  let client = clients.get(config);
  if (!client) {
    client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: {
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
      },
      // By default the SDK puts a CRC32 of the (empty) presign-time body into the URL, which
      // every real upload then fails; checksums only when an operation demands one.
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
    clients.set(config, client);
  }
  return client;
}

/** A store in the configured bucket. */
export function createS3Storage(config: S3StorageConfig): ObjectStorage {
  const client = clientFor(config);
  return {
    presignPut: (key, contentType, expiresSeconds) =>
      getSignedUrl(
        client,
        new PutObjectCommand({ Bucket: config.bucket, Key: key, ContentType: contentType }),
        // Signing Content-Type makes the bucket refuse a body of any other type than the one asked.
        { expiresIn: expiresSeconds, signableHeaders: new Set(["content-type"]) },
      ),
    publicUrl: (key) => config.publicBaseUrl ? `${config.publicBaseUrl}/${key}` : undefined,
  };
}
