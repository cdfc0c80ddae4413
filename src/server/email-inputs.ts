// Inputs of the admin Emails calls (spec §7) and the inbound mail route's authentication.
import { Buffer } from "node:buffer";
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { EMAIL_SORT_KEYS } from "../shared/email-types.ts";
import { PayloadTooLargeError, UnauthenticatedError } from "../domain/errors.ts";

/** Query of GET /api/emails and GET /api/sent-emails: page from 1, search, sort column. */
export const EmailsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  search: z.string().max(200).default(""),
  sort: z.enum(EMAIL_SORT_KEYS).default("date"),
  dir: z.enum(["asc", "desc"]).default("desc"),
});

const HeaderText = z.string().max(2000).nullish();

/**
 * Body of POST /api/send-reply (spec §7). fromAddress, toAddress, originalMessageId and
 * originalSubject are accepted and not trusted: the reply goes from the configured sender to the
 * stored message's other side, threaded on the stored Message-ID. A blank replyBody is the
 * domain's spec §5 error, not a schema error, so the admin reads the spec's text.
 */
export const SendReplyInput = z.object({
  originalEmailId: z.uuid(),
  replyBody: z.string().max(100_000),
  fromAddress: HeaderText,
  toAddress: HeaderText,
  originalMessageId: HeaderText,
  originalSubject: HeaderText,
});

/** Body of POST /api/delete-email (spec §7). */
export const DeleteEmailInput = z.object({ id: z.uuid() });

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * Authenticates the mail provider: the shared secret as a bearer token, or as the password of
 * HTTP Basic auth (providers that only take a URL send https://inbound:SECRET@host/...). The
 * comparison takes the same time whatever matches; no secret configured refuses everyone.
 */
export function requireInboundSecret(request: Request, secret: string | undefined): void {
  const header = request.headers.get("authorization") ?? "";
  const [scheme, value = ""] = header.split(" ", 2);
  let given = "";
  if (/^bearer$/i.test(scheme)) given = value.trim();
  else if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value.trim(), "base64").toString("utf8");
    given = decoded.slice(decoded.indexOf(":") + 1);
  }
  const ok = timingSafeEqual(digest(given), digest(secret ?? ""));
  if (!secret || !given || !ok) throw new UnauthenticatedError("Invalid inbound mail secret");
}

/** Reads a request body up to `maxBytes`; a longer one is a 413 before it is all in memory. */
export async function readRawBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) {
    throw new PayloadTooLargeError("The message is too large");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new PayloadTooLargeError("The message is too large");
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * The raw message of an inbound post: the body itself (message/rfc822, text/plain, ...), or
 * from a form post the field providers put it in ("email" for SendGrid's raw mode,
 * "body-mime" for Mailgun's MIME route).
 */
export async function rawMessageOf(body: Uint8Array, contentType: string): Promise<Uint8Array> {
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)) return body;
  const form = await new Response(body as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": contentType },
  }).formData()
    .catch(() => null);
  const field = form?.get("email") ?? form?.get("body-mime");
  return typeof field === "string" ? Buffer.from(field) : new Uint8Array();
}
