import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { EmailsQuery } from "../../server/email-inputs.ts";
import { listMailbox } from "../../domain/mail/mailbox.ts";

/** Admin only (spec §7 GET /sent-emails): what the app sent (receipts, replies), 10 a page. */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  const query = readQuery(url, EmailsQuery);
  return Response.json(await listMailbox(locals.app.db, "sent", query));
};
