import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import preact from "@astrojs/preact";

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [preact({ compat: true })],
  publicDir: "static",
  server: { port: 8000 },
  // src/middleware.ts checks Origin / Sec-Fetch-Site on every state-changing request (JSON
  // included), which covers Astro's form-only check.
  security: { checkOrigin: false },
});
