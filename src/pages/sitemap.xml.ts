import type { APIRoute } from "astro";
import { listConsumerGameSlugs } from "../domain/catalogue/consumer-catalogue.ts";
import { siteUrlOf } from "../server/http.ts";
import { escapeHtml } from "../shared/html.ts";

// Issue 22: the consumer landing page and every game consumers can buy, at absolute URLs from
// siteUrlOf (PUBLIC_URL in production). Hidden games are not listed.
export const GET: APIRoute = async ({ locals, url }) => {
  const site = siteUrlOf(locals, url);
  const paths = [
    "/consumers",
    ...(await listConsumerGameSlugs(locals.app.db)).map((s) => `/consumers/${s}`),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${escapeHtml(`${site}${p}`)}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(body, { headers: { "content-type": "application/xml; charset=utf-8" } });
};
