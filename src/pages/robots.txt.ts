import type { APIRoute } from "astro";
import { siteUrlOf } from "../server/http.ts";

// Search engines may read the storefront, not the admin console, the reseller portal or
// the API; the sitemap's address is absolute (PUBLIC_URL in production).
export const GET: APIRoute = ({ locals, url }) =>
  new Response(
    [
      "User-agent: *",
      "Disallow: /admin",
      "Disallow: /resellers",
      "Disallow: /api",
      "",
      `Sitemap: ${siteUrlOf(locals, url)}/sitemap.xml`,
      "",
    ].join("\n"),
    { headers: { "content-type": "text/plain; charset=utf-8" } },
  );
