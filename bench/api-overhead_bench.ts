// `npm run bench -- api-overhead [clients] [seconds]`: what a JSON route costs through the page
// framework. 50 clients (default) read `GET /api/current_user` back to back, signed out (401: the
// middleware and the route, no database) and signed in (one session read), from the app on
// PostgreSQL (WORKERS=1, no job runner); the ceiling is a bare Deno HTTP server answering the same
// bytes, under the same load, in the same run. The app runs twice: /api through Astro
// (API_DISPATCH=astro, before) and through src/api-router.ts (after). CPU per request is the
// serving process's own.
import { buildApp, buildIsStale } from "../cli/build.ts";
import { closedLoop, requestTable, startBareServer, startBenchApp } from "./harness.ts";
import { LeanClient, textOf } from "./lean-client.ts";
import { appendResults } from "./results.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 5);

const table = requestTable("request", seconds);

const get = async (client: LeanClient, path: string, status: number) =>
  (await client.get(path)).status === status;
/** One lean connection per client, none signed in. */
const anonymousAt = (base: string) => Array.from({ length: clients }, () => new LeanClient(base));
const closeAll = (all: LeanClient[]) => all.forEach((c) => c.close());

if (buildIsStale()) await buildApp();
console.log(`${clients} clients, ${seconds} s each; PostgreSQL; everything on this machine.`);
console.log(table.header.join("\n"));

let signedOutBody = "";
// Before and after: /api through Astro (API_DISPATCH=astro), then through our own router.
for (const dispatch of ["astro", "router"]) {
  const app = await startBenchApp(clients, {
    balanceCents: 100_000,
    env: { RUN_JOBS: "false", API_DISPATCH: dispatch },
  });
  const through = dispatch === "astro" ? "through Astro" : "through the /api router";
  try {
    const path = "/api/current_user";
    const anonymous = anonymousAt(app.server.url);
    signedOutBody ||= textOf(await anonymous[0].get(path));
    table.report(
      `app ${through}, signed out (401)`,
      await closedLoop(anonymous, app.server.pid, seconds, (c) => get(c, path, 401)),
    );
    closeAll(anonymous);
    table.report(
      `app ${through}, signed in (200)`,
      await closedLoop(app.lean, app.server.pid, seconds, (c) => get(c, path, 200)),
    );
  } finally {
    await app.stop();
  }
}

const bare = await startBareServer(signedOutBody, "application/json");
try {
  const anonymous = anonymousAt(bare.url);
  table.report(
    "ceiling: bare Deno.serve, the 401's bytes",
    await closedLoop(anonymous, bare.pid, seconds, (c) => get(c, "/", 200)),
  );
  closeAll(anonymous);
} finally {
  await bare.stop();
}

await appendResults("API overhead", `npm run bench -- api-overhead ${clients} ${seconds}`, [
  `${clients} clients read \`GET /api/current_user\` back to back for ${seconds} s per row, signed`,
  "out (401, no database) and signed in (one session read), with /api dispatched through Astro",
  "(API_DISPATCH=astro, before) and through src/api-router.ts (after); the ceiling answers the",
  "401's bytes.",
  "Server CPU per request is the serving process's user + system time over the row. The load",
  "generator (bench/lean-client.ts: one kept-alive connection per client), the app and",
  "PostgreSQL share the machine's cores.",
  "",
  ...table.header,
  ...table.rows,
]);
