// `npm run bench -- api-overhead [clients] [seconds]`: what a JSON route costs through the page
// framework. 50 clients (default) read `GET /api/current_user` back to back, signed out (401: the
// middleware and the route, no database) and signed in (one session read), from the app on
// PostgreSQL (WORKERS=1, no job runner); the ceiling is a bare Deno HTTP server answering the same
// bytes, under the same load, in the same run. The app runs twice: /api through Astro
// (API_DISPATCH=astro, before) and through src/api-router.ts (after). CPU per request is the
// serving process's own.
import { buildApp, buildIsStale } from "../cli/build.ts";
import {
  closedLoop,
  type LoadResult,
  percentile,
  startBareServer,
  startBenchApp,
} from "./harness.ts";
import { appendResults } from "./results.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 5);

const rows: string[] = [];
function report(target: string, run: LoadResult) {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = `| ${target} | ${Math.round(run.latencies.length / seconds)} | ${
    ms(percentile(run.latencies, 50))
  } | ${ms(percentile(run.latencies, 99))} | ${
    (run.cpuUsedMs / run.latencies.length).toFixed(3)
  } ms | ${run.failures} |`;
  rows.push(row);
  console.log(row);
}

const get = async (url: string, headers: Record<string, string>, status: number) => {
  const r = await fetch(url, { headers });
  await r.arrayBuffer();
  return r.status === status;
};

if (buildIsStale()) await buildApp();
console.log(`${clients} clients, ${seconds} s each; PostgreSQL; everything on this machine.`);
console.log("| target | req/s | p50 | p99 | server CPU per request | failures |");
console.log("| ------ | ----- | --- | --- | ---------------------- | -------- |");

let signedOutBody = "";
// Before and after: /api through Astro (API_DISPATCH=astro), then through our own router.
for (const dispatch of ["astro", "router"]) {
  const app = await startBenchApp(clients, {
    balanceCents: 100_000,
    env: { RUN_JOBS: "false", API_DISPATCH: dispatch },
  });
  const through = dispatch === "astro" ? "through Astro" : "through the /api router";
  try {
    const url = `${app.server.url}/api/current_user`;
    const anonymous = Array.from({ length: clients }, () => ({}));
    signedOutBody ||= await (await fetch(url)).text();
    report(
      `app ${through}, signed out (401)`,
      await closedLoop(anonymous, app.server.pid, seconds, (h) => get(url, h, 401)),
    );
    const cookies = app.sessions.map((c) => ({
      cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    }));
    report(
      `app ${through}, signed in (200)`,
      await closedLoop(cookies, app.server.pid, seconds, (h) => get(url, h, 200)),
    );
  } finally {
    await app.stop();
  }
}

const bare = await startBareServer(signedOutBody, "application/json");
try {
  const anonymous = Array.from({ length: clients }, () => ({}));
  report(
    "ceiling: bare Deno.serve, the 401's bytes",
    await closedLoop(anonymous, bare.pid, seconds, (h) => get(`${bare.url}/`, h, 200)),
  );
} finally {
  await bare.stop();
}

await appendResults("API overhead", `npm run bench -- api-overhead ${clients} ${seconds}`, [
  `${clients} clients read \`GET /api/current_user\` back to back for ${seconds} s per row, signed`,
  "out (401, no database) and signed in (one session read), with /api dispatched through Astro",
  "(API_DISPATCH=astro, before) and through src/api-router.ts (after); the ceiling answers the",
  "401's bytes.",
  "Server CPU per request is the serving process's user + system time over the row. The load",
  "generator, the app and PostgreSQL share the machine's cores with other work.",
  "",
  "| target | req/s | p50 | p99 | server CPU per request | failures |",
  "| ------ | ----- | --- | --- | ---------------------- | -------- |",
  ...rows,
]);
