import type { APIRoute } from "astro";
import { readJson, requireAdmin } from "../../server/http.ts";
import { SendReplyInput } from "../../server/email-inputs.ts";
import { replyToEmail } from "../../domain/mail/mailbox.ts";
import { adminActor } from "../../domain/actor.ts";
import { getMailer } from "../../integrations/mail/mailer.ts";

/**
 * Admin only (spec §7 POST /send-reply): sends the reply by SMTP now, so a refusal reaches the
 * admin ('Failed to send reply: ' + error, a 502); on success the reply is in Sent (201).
 */
export const POST: APIRoute = async ({ locals, request }) => {
  const admin = requireAdmin(locals);
  const input = await readJson(request, SendReplyInput);
  const sent = await replyToEmail(
    locals.app.db,
    getMailer(locals.app.config),
    adminActor(admin),
    input,
  );
  return Response.json(sent, { status: 201 });
};
