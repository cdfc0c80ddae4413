// `npm run bench -- consumer-page [clients] [seconds]`: the server-rendered Mobile Legends top-up
// page, `GET /consumers/mobile-legends`, and a generic game's page, read back to back by
// `clients` (default 50) for `seconds` (default 10), from the app on PostgreSQL (demo catalogue,
// WORKERS=1): rendered each time (PAGE_CACHE=off) and from the page cache of cli/serve.ts; the
// ceiling is a bare Deno HTTP server answering the Mobile Legends page's bytes, under the same
// load, in the same run.
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { closedLoop, type LoadResult, requestTable, startBareServer } from "./harness.ts";
import { LeanClient, textOf } from "./lean-client.ts";
import { appendResults } from "./results.ts";

const PATH = "/consumers/mobile-legends";
const GENERIC_PATH = "/consumers/genshin-impact";
const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 10);

const table = requestTable("page", seconds);
const results: number[] = [];
const report = (target: string, run: LoadResult) => results.push(table.report(target, run));

const get = async (client: LeanClient, path: string) => {
  const r = await client.get(path);
  return r.status === 200 && textOf(r).includes("</html>");
};

/** `clients` readers of `path` at `base` until `seconds` pass, against the serving `pid`. */
async function readPage(base: string, path: string, pid: number): Promise<LoadResult> {
  const readers = Array.from({ length: clients }, () => new LeanClient(base));
  try {
    return await closedLoop(readers, pid, seconds, (c) => get(c, path));
  } finally {
    readers.forEach((c) => c.close());
  }
}

if (buildIsStale()) await buildApp();
console.log(`${clients} clients, ${seconds} s each; PostgreSQL; everything on this machine.`);
console.log(table.header.join("\n"));
Deno.env.set(
  "TEST_DATABASE_URL",
  Deno.env.get("BENCH_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/test",
);
let page = "";
for (const cache of ["off", "on"]) {
  const tdb = await createTestDatabase("postgres");
  const server = await startTestServer(tdb, { WORKERS: "1", RUN_JOBS: "false", PAGE_CACHE: cache });
  try {
    const probe = new LeanClient(server.url);
    page ||= textOf(await probe.get(PATH));
    probe.close();
    const how = cache === "off" ? "rendered each time (PAGE_CACHE=off)" : "from the page cache";
    for (const path of [PATH, GENERIC_PATH]) {
      report(`app, ${path}, ${how}`, await readPage(server.url, path, server.pid));
    }
  } finally {
    await server.stop();
    await tdb.drop();
  }
}
const bare = await startBareServer(page, "text/html; charset=utf-8");
try {
  report("ceiling: bare Deno.serve, same bytes", await readPage(bare.url, "/", bare.pid));
} finally {
  await bare.stop();
}
// results: [0] MLBB rendered, [1] generic rendered, [2] MLBB cached, [3] generic cached, [4] bare.
const ratio = (i: number) => (results[i] / results[4]).toFixed(2);
const share = `app / ceiling: ${ratio(2)} from the page cache, ${
  ratio(0)
} rendered each time; the generic game's page ${ratio(3)} from the page cache, ${
  ratio(1)
} rendered each time`;
console.log(share);

await appendResults("Consumer page", `npm run bench -- consumer-page ${clients} ${seconds}`, [
  `\`GET ${PATH}\` (${
    (page.length / 1024).toFixed(1)
  } KiB of HTML) and \`GET ${GENERIC_PATH}\`, ${clients} clients back to back for ${seconds} s`,
  "per row; the app on PostgreSQL with the demo catalogue, one worker, rendering each time",
  "(PAGE_CACHE=off) and from the page cache (one catalogue fingerprint query per visit), against",
  "a bare Deno HTTP server answering the same bytes. Server CPU per page is the serving process's",
  "own. The load generator (bench/lean-client.ts: one kept-alive connection per client), the app",
  "and PostgreSQL share the machine's cores.",
  "",
  ...table.header,
  ...table.rows,
  "",
  `${share} (goal ≥ 0.30).`,
]);
