// What a store of admin-uploaded images offers, and the upload rules a store is given: the rules
// are the domain's (src/domain/catalogue/uploads.ts), so a store never imports them.

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

/** The upload rules a store that receives the bytes itself checks them against. */
export interface UploadRules {
  /** True for keys the server makes; anything else never touches the disk. */
  isUploadKey(key: string): boolean;
  /** True when `bytes` start the way a file of the accepted image `type` starts. */
  isImageOfType(bytes: Uint8Array, type: string): boolean;
  /** The largest upload accepted, in bytes. */
  maxBytes: number;
  /** The error text for a body that is not the image its type says. */
  invalidImageText: string;
}
