import type { APIRoute } from "astro";
import { z } from "zod";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { listSentMail } from "../../domain/mail/sent.ts";

const SentEmailsQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

/** Admin only: the mail the app sent (the demo's mail sink), 10 a page, newest first. */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  const { page } = readQuery(url, SentEmailsQuery);
  return Response.json(await listSentMail(locals.app.db, page));
};
