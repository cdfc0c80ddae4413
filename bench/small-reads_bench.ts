// `npm run bench -- small-reads [clients] [seconds] [before-ref]`: small signed-in reads over HTTP (goal: p99 <
// 50 ms at 50 clients): `GET /api/current_user` (session and user) and `GET
// /api/resellers/game/{id}` (a game with the reseller's prices), `clients` (default 50) signed-in
// resellers reading back to back for `seconds` (default 10) per row, from the app on PostgreSQL
// (BENCH_DATABASE_URL, default the local `test` database; WORKERS=1, no job runner). The ceiling
// of each call: a bare Deno HTTP server answering the same bytes, under the same load, in the
// same run. With `before-ref`, the app at that git revision runs each row too, right before this
// checkout's (before and after in one run).
import { buildApp, buildIsStale } from "../cli/build.ts";
import { pubgOrder } from "../tests/helpers/orders.ts";
import {
  checkoutRevision,
  closedLoop,
  requestTable,
  runClosedLoop,
  startBareServer,
  startBenchApp,
} from "./harness.ts";
import { LeanClient, textOf } from "./lean-client.ts";
import { appendResults } from "./results.ts";

const clients = Number(Deno.args[0] ?? 50);
const seconds = Number(Deno.args[1] ?? 10);
const beforeRef = Deno.args[2];

const table = requestTable("request", seconds);

if (buildIsStale()) await buildApp();
console.log(`${clients} clients, ${seconds} s each; PostgreSQL; everything on this machine.`);
console.log(table.header.join("\n"));

const calls: { label: string; body: string }[] = [];
const before = beforeRef ? await checkoutRevision(beforeRef) : undefined;
const apps = [
  ...(before ? [{ label: `app at ${beforeRef} (before)`, cwd: before.dir }] : []),
  { label: before ? "app (after)" : "app", cwd: undefined },
];
try {
  for (const { label: appLabel, cwd } of apps) {
    const app = await startBenchApp(clients, {
      balanceCents: 100_000,
      env: { RUN_JOBS: "false" },
      cwd,
    });
    try {
      const { pubg } = await pubgOrder(app.sessions[0]);
      for (
        const [label, path] of [
          ["GET /api/current_user", "/api/current_user"],
          ["GET /api/resellers/game/{id}", `/api/resellers/game/${pubg._id}`],
        ]
      ) {
        const body = textOf(await app.lean[0].get(path));
        if (!cwd) calls.push({ label, body });
        table.report(
          `${appLabel}, ${label}`,
          await runClosedLoop(app, seconds, async (c) => (await c.get(path)).status === 200),
        );
      }
    } finally {
      await app.stop();
    }
  }
} finally {
  await before?.remove();
}

for (const { label, body } of calls) {
  const bare = await startBareServer(body, "application/json");
  const readers = Array.from({ length: clients }, () => new LeanClient(bare.url));
  try {
    table.report(
      `ceiling: bare Deno.serve, the bytes of ${label}`,
      await closedLoop(readers, bare.pid, seconds, async (c) => (await c.get("/")).status === 200),
    );
  } finally {
    readers.forEach((c) => c.close());
    await bare.stop();
  }
}

await appendResults(
  "Small reads",
  `npm run bench -- small-reads ${clients} ${seconds}${beforeRef ? ` ${beforeRef}` : ""}`,
  [
    `${clients} signed-in resellers, each with its own session, read back to back for ${seconds} s`,
    "per row: `GET /api/current_user` (one session-and-user query) and",
    "`GET /api/resellers/game/{id}` (the session, the game, the reseller's prices); the app on",
    "PostgreSQL, one worker, no job runner. Each call's ceiling is a bare Deno HTTP server answering",
    "its bytes. Goal: p99 < 50 ms at 50 clients. The load generator (bench/lean-client.ts: one",
    "kept-alive connection per client), the app and PostgreSQL share the machine's cores.",
    "",
    ...table.header,
    ...table.rows,
  ],
);
