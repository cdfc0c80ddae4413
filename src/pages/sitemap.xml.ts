import type { APIRoute } from "astro";
import { consumerSitemap } from "../domain/catalogue/consumer-catalogue.ts";

// The consumer landing page and every game consumers can buy, for search engines.
export const GET: APIRoute = async ({ locals }) =>
  new Response(await consumerSitemap(locals.app.db), {
    headers: { "content-type": "application/xml; charset=utf-8" },
  });
