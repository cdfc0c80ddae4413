import type { APIRoute } from "astro";
import { publicOrigin } from "../config.ts";

// Search engines may read the storefront, not the admin console, the reseller portal or
// the API; the sitemap's address is absolute (PUBLIC_URL in production).
export const GET: APIRoute = () =>
  new Response(
    [
      "User-agent: *",
      "Disallow: /admin",
      "Disallow: /resellers",
      "Disallow: /api",
      "",
      `Sitemap: ${publicOrigin()}/sitemap.xml`,
      "",
    ].join("\n"),
    { headers: { "content-type": "text/plain; charset=utf-8" } },
  );
