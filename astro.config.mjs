import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import preact from "@astrojs/preact";

export default defineConfig({
  output: "server",
  // cli/serve.ts owns the HTTP server: it serves dist/client from a file list read at start-up and
  // hands everything else to the adapter's handler, so API calls never stat the file system.
  adapter: node({ mode: "middleware" }),
  integrations: [preact({ compat: true })],
  publicDir: "static",
  server: { port: 8000 },
  // One spelling per page (issue 21): /resellers/home/ redirects to /resellers/home before the
  // middleware runs, so no page answers under a path its guard did not see. The /api router
  // (src/api-router.ts) leaves such paths to Astro, which redirects them alike.
  trailingSlash: "never",
  // src/middleware.ts checks Origin / Sec-Fetch-Site on every state-changing request (JSON
  // included), which covers Astro's form-only check.
  // Pages get a Content-Security-Policy with the hashes of the inline scripts Astro renders (the
  // island loader); src/server/security-headers.ts completes it for every answer.
  security: {
    checkOrigin: false,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: https:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
});
