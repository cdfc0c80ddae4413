// `npm run bench -- lighthouse`: Lighthouse (the npm package, mobile profile: its default
// emulated mid-range phone on a throttled 4G connection) on /consumers and the Mobile Legends
// top-up page and a generic game's page, driving Chromium (CHROME_PATH, default /usr/bin/chromium) through chrome-launcher:
// performance and SEO scores, LCP, CLS and total blocking time per page. The app serves the demo
// catalogue from PGlite, one worker. Goals (issues 10, 22): performance ≥ 95, SEO ≥ 95, CLS < 0.05.
import lighthouse from "lighthouse";
import { launch } from "chrome-launcher";
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { appendResults } from "./results.ts";

const PAGES = ["/consumers", "/consumers/mobile-legends", "/consumers/genshin-impact"];

if (buildIsStale()) await buildApp();
const tdb = await createTestDatabase("pglite");
const server = await startTestServer(tdb);
const chrome = await launch({
  chromePath: Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
const header = [
  "| page | performance | SEO | LCP | CLS | TBT | FCP | speed index |",
  "| ---- | ----------- | --- | --- | --- | --- | --- | ----------- |",
];
const rows: string[] = [];
console.log(header.join("\n"));
try {
  for (const path of PAGES) {
    const result = await lighthouse(`${server.url}${path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "seo"],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    const { categories, audits } = result.lhr;
    const ms = (id: string) => `${Math.round(audits[id].numericValue ?? NaN)} ms`;
    const score = (id: string) => Math.round((categories[id].score ?? 0) * 100);
    const row = `| ${path} | ${score("performance")} | ${score("seo")} | ${
      ms("largest-contentful-paint")
    } | ${(audits["cumulative-layout-shift"].numericValue ?? NaN).toFixed(3)} | ${
      ms("total-blocking-time")
    } | ${ms("first-contentful-paint")} | ${ms("speed-index")} |`;
    rows.push(row);
    console.log(row);
  }
} finally {
  chrome.kill();
  await server.stop();
  await tdb.drop();
}

await appendResults("Lighthouse", "npm run bench -- lighthouse", [
  `Lighthouse ${
    (await import("lighthouse/package.json", { with: { type: "json" } })).default.version
  }, performance and SEO categories, mobile profile (emulated phone, simulated slow 4G and 4x CPU`,
  "slowdown), headless Chromium; the app on PGlite with the demo catalogue, one worker, on a",
  "machine shared with other work (Lighthouse's simulated throttling keeps its figures steadier",
  "than wall-clock timings). Goals: performance ≥ 95, SEO ≥ 95, CLS < 0.05.",
  "",
  ...header,
  ...rows,
]);
