import type { APIRoute } from "astro";
import { readQuery, requireAdmin } from "../../server/http.ts";
import { ConsumerListQuery } from "../../server/reseller-inputs.ts";
import { listConsumersPage } from "../../domain/admin/consumers.ts";

/** Admins: consumers 20 a page, newest first; ?search= matches name, email or phone. */
export const GET: APIRoute = async ({ locals, url }) => {
  requireAdmin(locals);
  return Response.json(await listConsumersPage(locals.app.db, readQuery(url, ConsumerListQuery)));
};
