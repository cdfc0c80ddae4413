// The consumer pages' JavaScript (quality bar: top-up page total JS ≤ 30 KiB gzipped). Serves the
// built app (run `npm run build` first), opens each page in Chromium, records every script it
// loads, and gzips each file from dist/client as a server would send it (`gzip -c FILE | wc -c`).
// The island bootstrap Astro inlines in the HTML is counted separately.
import { gzipSync } from "node:zlib";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { launchBrowser, waitForIslands } from "../tests/helpers/browser.ts";

const PAGES = ["/consumers", "/consumers/mobile-legends", "/payment/success", "/consumers/order"];

const tdb = await createTestDatabase("pglite");
const server = await startTestServer(tdb);
const browser = await launchBrowser();
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
try {
  console.log("| page | script files | raw | gzipped | inline bootstrap (gzipped) |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const path of PAGES) {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    const scripts = new Set<string>();
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${server.url}${path}`);
    await waitForIslands(page);
    await page.waitForLoadState("networkidle");
    const inline = await page.locator("script:not([src])").evaluateAll((els) =>
      els.map((e) => e.textContent ?? "").join("")
    );
    await page.close();
    let raw = 0;
    let gzipped = 0;
    for (const script of scripts) {
      const bytes = await Deno.readFile(`dist/client${script}`);
      raw += bytes.length;
      gzipped += gzipSync(bytes).length;
    }
    const inlineGz = inline ? gzipSync(new TextEncoder().encode(inline)).length : 0;
    console.log(`| ${path} | ${scripts.size} | ${kib(raw)} | ${kib(gzipped)} | ${kib(inlineGz)} |`);
  }
} finally {
  await browser.close();
  await server.stop();
  await tdb.drop();
}
