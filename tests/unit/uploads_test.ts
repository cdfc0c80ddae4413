import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { loadConfig } from "../../src/config.ts";
import { ValidationError } from "../../src/domain/errors.ts";
import {
  contentTypeOfKey,
  createImageUpload,
  INVALID_IMAGE_TEXT,
  isImageOfType,
  isUploadKey,
  MAX_UPLOAD_BYTES,
  newUploadKey,
  UPLOAD_RULES,
} from "../../src/domain/catalogue/uploads.ts";
import {
  createLocalStorage,
  signUpload,
  verifyUpload,
} from "../../src/integrations/storage/local.ts";
import { createS3Storage } from "../../src/integrations/storage/s3.ts";

const ID = "0b6c7a52-3f1e-4c8a-9d2b-5e4f3a2b1c0d";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const BASE = "http://shop.test";

Deno.test("[uploads] keys are made by the server from a slug of the name and the type's extension", () => {
  const cases: [string, string, string][] = [
    ["Hero Banner.png", "image/png", `games/${ID}-hero-banner.png`],
    ["../../etc/passwd.png", "image/png", `games/${ID}-passwd.png`],
    ["C:\\Users\\me\\Cool Pic!!.JPG", "image/jpeg", `games/${ID}-cool-pic.jpg`],
    ["Café Ünïcode.webp", "image/webp", `games/${ID}-cafe-unicode.webp`],
    ["photo.png", "image/avif", `games/${ID}-photo.avif`],
    ["...", "image/gif", `games/${ID}-image.gif`],
    ["龍.png", "image/png", `games/${ID}-image.png`],
    [`${"a".repeat(59)}-b.png`, "image/png", `games/${ID}-${"a".repeat(59)}.png`],
  ];
  for (const [fileName, fileType, key] of cases) {
    assert.equal(newUploadKey(fileName, fileType, ID), key, fileName);
    assert.ok(isUploadKey(key), key);
    assert.equal(contentTypeOfKey(key), fileType);
  }
  assert.match(newUploadKey("a.png", "image/png"), /^games\/[0-9a-f-]{36}-a\.png$/);
});

Deno.test("[uploads] only keys shaped like the server's reach the disk", () => {
  for (
    const key of [
      "",
      ".signing-key",
      "../secret.png",
      `games/../${ID}-a.png`,
      `games/${ID}-a.png/../../x.png`,
      `games/${ID}-a.svg`,
      `games/${ID}-a.png.${ID}.tmp`,
      `games/${ID}-A.png`,
      `other/${ID}-a.png`,
    ]
  ) {
    assert.equal(isUploadKey(key), false, key);
  }
});

Deno.test("[uploads] png, jpeg, webp, gif and avif are images; anything else gets the spec text", () => {
  for (const type of ["image/svg+xml", "text/html", "application/pdf", "image/PNG", ""]) {
    assert.throws(() => newUploadKey("a.png", type), (e: Error) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.message, INVALID_IMAGE_TEXT);
      return true;
    });
  }
  const avif = new Uint8Array(24);
  new DataView(avif.buffer).setUint32(0, 24);
  avif.set(new TextEncoder().encode("ftypmif1\0\0\0\0mif1avif"), 4);
  assert.ok(isImageOfType(PNG, "image/png"));
  assert.ok(isImageOfType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), "image/jpeg"));
  assert.ok(isImageOfType(new TextEncoder().encode("GIF89a"), "image/gif"));
  assert.ok(isImageOfType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "), "image/webp"));
  assert.ok(isImageOfType(avif, "image/avif"));
  assert.equal(isImageOfType(PNG, "image/jpeg"), false);
  assert.equal(isImageOfType(new TextEncoder().encode("<html>"), "image/png"), false);
  assert.equal(isImageOfType(new Uint8Array(), "image/png"), false);
  assert.equal(isImageOfType(PNG, "text/html"), false);
});

Deno.test("[uploads] a signature holds for its key, type and expiry only", () => {
  const signingKey = new Uint8Array(32).fill(7);
  const upload = { key: `games/${ID}-a.png`, contentType: "image/png", expires: "2000000000" };
  const signature = signUpload(signingKey, upload);
  assert.match(signature, /^[0-9a-f]{64}$/);
  const before = 1_999_999_999_000;
  assert.equal(verifyUpload(signingKey, upload, signature, before), "ok");
  assert.equal(verifyUpload(signingKey, upload, signature, 2_000_000_001_000), "expired");
  const tampered = [
    { ...upload, key: `games/${ID}-b.png` },
    { ...upload, contentType: "image/jpeg" },
    { ...upload, contentType: "" },
    { ...upload, expires: "2000000001" },
    { ...upload, expires: "02000000000" },
    { ...upload, expires: "" },
  ];
  for (const changed of tampered) {
    assert.equal(
      verifyUpload(signingKey, changed, signature, before),
      "invalid",
      JSON.stringify(changed),
    );
  }
  assert.equal(verifyUpload(new Uint8Array(32), upload, signature, before), "invalid");
  for (const bad of ["", "zz", signature.slice(2), signature.toUpperCase()]) {
    assert.equal(verifyUpload(signingKey, upload, bad, before), "invalid", bad);
  }
});

/** A browser PUT of `body` to an upload URL. */
function put(url: string, body: BodyInit, contentType = "image/png") {
  return new Request(url, { method: "PUT", headers: { "content-type": contentType }, body });
}

Deno.test("[uploads] the local store accepts one signed PUT of an image and serves it back", async () => {
  const root = await Deno.makeTempDir({ prefix: "topup-uploads-" });
  try {
    let clock = 1_700_000_000_000;
    const storage = createLocalStorage({
      root,
      baseUrl: BASE,
      rules: UPLOAD_RULES,
      now: () => clock,
    });
    const key = `games/${ID}-a.png`;
    const url = await storage.presignPut(key, "image/png", 300);
    assert.equal(url.split("?")[0], `${BASE}/uploads/${key}`);
    assert.match(url, /\?expires=1700000300&signature=[0-9a-f]{64}$/);

    await assert.rejects(storage.acceptPut(key, put(url, PNG, "image/jpeg")), {
      name: "ForbiddenError",
    });
    await assert.rejects(storage.acceptPut(key, put(url, "<svg/>")), {
      name: "ValidationError",
      message: INVALID_IMAGE_TEXT,
    });
    await assert.rejects(
      storage.acceptPut(key, put(url, new Uint8Array(MAX_UPLOAD_BYTES + 1))),
      { name: "PayloadTooLargeError" },
    );
    const chunked = new Blob([PNG, new Uint8Array(MAX_UPLOAD_BYTES)]).stream();
    await assert.rejects(storage.acceptPut(key, put(url, chunked)), {
      name: "PayloadTooLargeError",
    });
    assert.equal(await storage.read(key), null);

    await storage.acceptPut(key, put(url, PNG));
    assert.deepEqual(await storage.read(key), new Uint8Array(PNG));
    await assert.rejects(storage.acceptPut(key, put(url, PNG)), { name: "ConflictError" });
    const leftovers = [...Deno.readDirSync(join(root, "games"))].map((e) => e.name);
    assert.deepEqual(leftovers, [`${ID}-a.png`]);

    const late = await storage.presignPut(`games/${ID}-b.png`, "image/png", 300);
    clock += 301_000;
    await assert.rejects(storage.acceptPut(`games/${ID}-b.png`, put(late, PNG)), {
      name: "ForbiddenError",
      message: "This upload link has expired",
    });
    assert.equal(await storage.read(".signing-key"), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("[uploads] the signing key comes from APP_SECRET, else from one key file per folder", async () => {
  const [a, b] = await Promise.all([
    Deno.makeTempDir({ prefix: "topup-uploads-" }),
    Deno.makeTempDir({ prefix: "topup-uploads-" }),
  ]);
  try {
    const key = `games/${ID}-a.png`;
    const appSecret = "s".repeat(32);
    const signedInA = await createLocalStorage({
      root: a,
      baseUrl: BASE,
      rules: UPLOAD_RULES,
      appSecret,
    })
      .presignPut(key, "image/png", 300);
    await createLocalStorage({ root: b, baseUrl: BASE, rules: UPLOAD_RULES, appSecret })
      .acceptPut(key, put(signedInA, PNG));
    await assert.rejects(Deno.stat(join(a, ".signing-key")), Deno.errors.NotFound);

    const fromFile = await createLocalStorage({ root: a, baseUrl: BASE, rules: UPLOAD_RULES })
      .presignPut(key, "image/png", 300);
    const stat = await Deno.stat(join(a, ".signing-key"));
    assert.equal(stat.mode! & 0o777, 0o600);
    assert.match(await Deno.readTextFile(join(a, ".signing-key")), /^[0-9a-f]{64}$/);
    await assert.rejects(
      createLocalStorage({ root: a, baseUrl: BASE, rules: UPLOAD_RULES, appSecret }).acceptPut(
        key,
        put(fromFile, PNG),
      ),
      { name: "ForbiddenError" },
    );
    await createLocalStorage({ root: a, baseUrl: BASE, rules: UPLOAD_RULES }).acceptPut(
      key,
      put(fromFile, PNG),
    );
  } finally {
    await Promise.all([a, b].map((d) => Deno.remove(d, { recursive: true })));
  }
});

Deno.test("[uploads] the endpoint's answer: the stored image URL is the upload URL without its query", async () => {
  const root = await Deno.makeTempDir({ prefix: "topup-uploads-" });
  try {
    const storage = createLocalStorage({ root, baseUrl: BASE, rules: UPLOAD_RULES });
    const upload = await createImageUpload(storage, {
      fileName: "Logo.webp",
      fileType: "image/webp",
    });
    assert.match(upload.presignedUrl, /^http:\/\/shop\.test\/uploads\/games\/.+-logo\.webp\?/);
    assert.equal(upload.imageUrl, upload.presignedUrl.split("?")[0]);
    await assert.rejects(
      createImageUpload(storage, { fileName: "x.svg", fileType: "image/svg+xml" }),
      { message: INVALID_IMAGE_TEXT },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

const S3_ENV = {
  STORAGE: "s3",
  S3_BUCKET: "game-images",
  S3_REGION: "eu-west-1",
  S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
  S3_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};

Deno.test("[uploads] STORAGE=s3 names every missing bucket setting", () => {
  assert.throws(
    () => loadConfig({ STORAGE: "s3", S3_BUCKET: "b" }),
    /S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required when STORAGE is s3/,
  );
  assert.throws(() => loadConfig({ STORAGE: "ftp" }), /STORAGE: expected 'local' or 's3'/);
  assert.deepEqual(loadConfig({}).storage, { kind: "local" });
});

Deno.test("[uploads] S3 presigns a PUT of the bucket and key that signs the content type", async () => {
  const key = `games/${ID}-a.png`;
  const aws = loadConfig(S3_ENV).storage;
  assert.equal(aws.kind, "s3");
  const url = new URL(await createS3Storage(aws).presignPut(key, "image/png", 300));
  assert.equal(url.origin, "https://game-images.s3.eu-west-1.amazonaws.com");
  assert.equal(url.pathname, `/${key}`);
  assert.match(url.searchParams.get("X-Amz-Signature") ?? "", /^[0-9a-f]{64}$/);
  assert.equal(url.searchParams.get("X-Amz-Expires"), "300");
  assert.equal(url.searchParams.get("X-Amz-SignedHeaders"), "content-type;host");
  assert.match(url.searchParams.get("X-Amz-Credential") ?? "", /^AKIDEXAMPLE\//);
  assert.ok(
    ![...url.searchParams.keys()].some((k) => k.startsWith("x-amz-checksum")),
    "no checksum of an empty body baked into the URL",
  );

  const minio = loadConfig({
    ...S3_ENV,
    S3_ENDPOINT: "http://127.0.0.1:9000",
    S3_FORCE_PATH_STYLE: "true",
    S3_PUBLIC_BASE_URL: "https://cdn.shop.test/",
  }).storage;
  assert.equal(minio.kind, "s3");
  const storage = createS3Storage(minio);
  const upload = await createImageUpload(storage, { fileName: "a.png", fileType: "image/png" });
  assert.match(upload.presignedUrl, /^http:\/\/127\.0\.0\.1:9000\/game-images\/games\/.+-a\.png\?/);
  assert.match(upload.imageUrl, /^https:\/\/cdn\.shop\.test\/games\/.+-a\.png$/);
  assert.equal(
    upload.imageUrl.split("/").pop(),
    upload.presignedUrl.split("?")[0].split("/").pop(),
  );
});
