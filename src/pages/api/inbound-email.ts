import type { APIRoute } from "astro";
import { rawMessageOf, readRawBody, requireInboundSecret } from "../../server/email-inputs.ts";
import { MAX_INBOUND_BYTES, receiveInboundEmail } from "../../domain/mail/inbound.ts";

/**
 * The mail provider's inbound route: one raw MIME message per POST, authenticated by the shared
 * INBOUND_MAIL_SECRET (bearer token or Basic password) before the body is read. 201 when stored,
 * 200 when the same Message-ID is already in the inbox (a provider's retry), 400 when the body
 * is not a message, 401 with a wrong or missing secret: nothing is stored then.
 */
export const POST: APIRoute = async ({ locals, request }) => {
  requireInboundSecret(request, locals.app.config.mail.inboundSecret);
  const body = await readRawBody(request, MAX_INBOUND_BYTES);
  const raw = await rawMessageOf(body, request.headers.get("content-type") ?? "");
  const result = await receiveInboundEmail(locals.app.db, raw);
  return Response.json(
    result.stored ? { id: result.id, duplicate: false } : { duplicate: true },
    { status: result.stored ? 201 : 200 },
  );
};
