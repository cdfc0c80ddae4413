// `npm run bench -- compression [seconds]`: what compressing the answers rendered per request costs.
// Two measures for each page and JSON answer: (1) the CPU time of compressing its body
// alone, in this process, with compressBody as the server does (gzip level 6, brotli quality 5),
// over 200 rounds; (2) the serving process's CPU per request, read
// back to back by 4 clients for `seconds` (default 5) without Accept-Encoding, with gzip and with
// br only, three alternating rounds each, on the default test backend, the demo catalogue, one
// worker, jobs off.
import { Buffer } from "node:buffer";
import process from "node:process";
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../tests/helpers/sessions.ts";
import { closedLoop, leanClientOf } from "./harness.ts";
import { appendResults } from "./results.ts";
import { compressBody, type Encoding } from "../src/server/compression.ts";

const seconds = Number(Deno.args[0] ?? 5);
const CLIENTS = 4;
const ROUNDS = 200;
const ROUNDS_ON_SERVER = 3;

/** This process's CPU time per compression of `body` as the server does it, in ms, and its size. */
function compressionCost(body: Buffer, encoding: Encoding) {
  compressBody(body, encoding, "fast");
  const before = process.cpuUsage();
  let size = 0;
  for (let i = 0; i < ROUNDS; i++) size = compressBody(body, encoding, "fast")!.length;
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000 / ROUNDS, size };
}

/** The serving process's CPU per request of `path` with `acceptEncoding`, in ms, over one run. */
async function serverCpuPerRequest(
  user: TestClient,
  path: string,
  acceptEncoding: string,
): Promise<number> {
  const readers = Array.from({ length: CLIENTS }, () => leanClientOf(user));
  try {
    const run = await closedLoop(readers, server.pid, seconds, async (c) => {
      const r = await c.get(path, { "accept-encoding": acceptEncoding });
      return r.status === 200;
    });
    if (run.failures) throw new Error(`${path} (${acceptEncoding}): ${run.failures} failures`);
    return run.cpuUsedMs / run.latencies.length;
  } finally {
    readers.forEach((c) => c.close());
  }
}

if (buildIsStale()) await buildApp();
const tdb = await createTestDatabase();
const server = await startTestServer(tdb, { RUN_JOBS: "false" });
const rows: string[] = [];
try {
  const who = {
    visitor: new TestClient(server.url),
    admin: await signInDemoAdmin(server.url),
    reseller: await signInDemoReseller(server.url),
  };
  const targets: [keyof typeof who, string][] = [
    ["visitor", "/consumers/order"],
    ["reseller", "/resellers/home"],
    ["admin", "/admin/home"],
    ["admin", "/api/admin/games"],
    ["admin", "/api/dashboard"],
  ];
  const header = [
    "| answer | bytes | gzip bytes | br bytes | gzip CPU alone | br CPU alone | server CPU per request: none | gzip | br |",
    "| ------ | ----- | ---------- | -------- | -------------- | ------------ | ---------------------------- | ---- | -- |",
  ];
  console.log(header.join("\n"));
  for (const [user, path] of targets) {
    const page = await who[user].get(path);
    if (page.status !== 200) throw new Error(`${path}: ${page.status}`);
    const body = Buffer.from(page.text);
    const gzip = compressionCost(body, "gzip");
    const br = compressionCost(body, "br");
    // Rounds alternate the three encodings, so that a burst of other work on the machine falls
    // on all three alike; each gets the median of its rounds.
    const perRequest: Record<string, number[]> = { identity: [], gzip: [], br: [] };
    for (let round = 0; round < ROUNDS_ON_SERVER; round++) {
      for (const acceptEncoding of Object.keys(perRequest)) {
        perRequest[acceptEncoding].push(await serverCpuPerRequest(who[user], path, acceptEncoding));
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
    const serverCpu = Object.values(perRequest).map((v) => `${median(v).toFixed(3)} ms`);
    const row = `| ${path} | ${body.length} | ${gzip.size} | ${br.size} | ${
      gzip.ms.toFixed(3)
    } ms | ${br.ms.toFixed(3)} ms | ${serverCpu.join(" | ")} |`;
    rows.push(row);
    console.log(row);
  }
  await appendResults("Compression per request", `npm run bench -- compression ${seconds}`, [
    `Each answer as the app renders it per request. "CPU alone": this process's CPU time to`,
    "compress the body once with compressBody as the server does (gzip level 6, brotli quality 5),",
    `mean of ${ROUNDS}. "Server CPU per request": the serving process's`,
    `CPU time per answer, ${CLIENTS} clients back to back for ${seconds} s with that`,
    `Accept-Encoding (none, gzip, br only), median of ${ROUNDS_ON_SERVER} alternating rounds; the`,
    "difference to none is what compressing costs there, within the noise of the shared machine.",
    "",
    ...header,
    ...rows,
  ]);
} finally {
  await server.stop();
  await tdb.drop();
}
