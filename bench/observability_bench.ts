// `npm run bench -- observability [requests]`: what the request scope, the request's log line and
// its metrics cost per request, in process and without the rest of the app: requestIdFrom,
// runInScope, observeRequest and one logger line (JSON, written synchronously to stdout, here
// /dev/null so the terminal's cost is not counted), against an empty loop. The HTTP benches
// (small-reads, order-placement with a before-ref) measure the same cost inside whole requests,
// where the shared machine's noise is larger than it.
import process from "node:process";
import { requestIdFrom, runInScope } from "../src/observability/context.ts";
import { observeRequest } from "../src/observability/metrics.ts";
import { logger } from "../src/observability/log.ts";

const requests = Number(Deno.args[0] ?? 200_000);

if (!Deno.env.get("OBSERVABILITY_BENCH_CHILD")) {
  // The child writes its log lines to /dev/null and its figures to stderr.
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, String(requests)],
    env: { OBSERVABILITY_BENCH_CHILD: "1" },
    stdout: "null",
    stderr: "inherit",
  });
  Deno.exit((await child.spawn().status).code);
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function measure(label: string, each: (i: number) => void): number {
  for (let i = 0; i < 10_000; i++) each(i); // warm up
  const before = cpuMicros();
  for (let i = 0; i < requests; i++) each(i);
  const perRequest = (cpuMicros() - before) / requests;
  console.error(`${label}: ${perRequest.toFixed(2)} µs CPU per request`);
  return perRequest;
}

const routes = ["/api/current_user", "/api/resellers/game/[gameId]", "/api/reseller/place_order"];
const empty = measure("empty loop", () => {});
const scoped = measure("request id and scope", (i) => {
  runInScope({ requestId: requestIdFrom(undefined) }, () => i);
});
const metrics = measure("metrics (counter and histogram)", (i) => {
  observeRequest(routes[i % 3], "GET", 200, 0.004);
});
const log = measure("one JSON log line", (i) => {
  logger().info({
    msg: "request",
    method: "GET",
    route: routes[i % 3],
    path: "/api/current_user",
    status: 200,
    ms: 4,
  });
});
console.error(
  `total: ${
    (scoped + metrics + log - 3 * empty).toFixed(2)
  } µs CPU per request (${requests} requests)`,
);
