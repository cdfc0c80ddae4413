// `npm run bench -- status-poll [pollers] [workers,...] [before-ref]`: the result page's status
// poll, `GET /api/order/{id}/status`, by `pollers` consumers (default 200) each polling its own
// order (awaiting payment, then paid), first every 3 s as the page does, then back to back;
// against the app with WORKERS=1 and 2 (a fresh PostgreSQL database each, BENCH_DATABASE_URL),
// with the app at git revision `before-ref` too when given (before/after in one run), and the
// ceiling: a bare Deno HTTP server answering the same bytes, under the same load, in the same run.
import { buildApp, buildIsStale } from "../cli/build.ts";
import { createTestDatabase } from "../tests/helpers/backends.ts";
import { startTestServer } from "../tests/helpers/server.ts";
import { signInDemoAdmin } from "../tests/helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  waitForStatus,
} from "../tests/helpers/consumer-payments.ts";
import { TestClient } from "../tests/helpers/client.ts";
import {
  AWAITING_PAYMENT,
  DELIVERED,
  FAILED,
  PAYMENT_RECEIVED,
} from "../src/domain/payments/consumer-states.ts";
import { computeConsumerPrice } from "../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../src/domain/money.ts";
import type { GameDto } from "../src/shared/game-types.ts";
import { checkoutRevision, percentile, startBareServer } from "./harness.ts";
import { LeanClient, textOf } from "./lean-client.ts";
import { appendResults } from "./results.ts";

const pollers = Number(Deno.args[0] ?? 200);
const workerCounts = (Deno.args[1] ?? "1,2").split(",").map(Number);
const beforeRef = Deno.args[2];
const PAGE_INTERVAL_MS = 3000;
const PACED_SECONDS = 30;
const LOOP_SECONDS = 10;

interface Run {
  latencies: number[];
  failures: number;
  seconds: number;
}

/**
 * Each poller asks for its path at `base` on a connection of its own, then again `intervalMs`
 * after the previous ask started (0: at once), until `seconds` pass; the pollers start spread over
 * one interval.
 */
async function poll(
  base: string,
  paths: string[],
  intervalMs: number,
  seconds: number,
): Promise<Run> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
  await Promise.all(paths.map(async (path, i) => {
    const client = new LeanClient(base);
    if (intervalMs) await sleep((i * intervalMs) / paths.length);
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const r = await client.get(path);
        if (r.status !== 200 || !textOf(r).includes('"status"')) failures++;
      } catch {
        failures++;
      }
      const took = performance.now() - t0;
      latencies.push(took);
      if (intervalMs) await sleep(Math.max(0, intervalMs - took));
    }
    client.close();
  }));
  latencies.sort((a, b) => a - b);
  return { latencies, failures, seconds: (performance.now() - started) / 1000 };
}

const rows: string[] = [];
function report(target: string, mode: string, run: Run) {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = `| ${target} | ${mode} | ${run.latencies.length} | ${
    Math.round(run.latencies.length / run.seconds)
  } | ${ms(percentile(run.latencies, 50))} | ${ms(percentile(run.latencies, 99))} | ${
    ms(run.latencies.at(-1)!)
  } | ${run.failures} |`;
  rows.push(row);
  console.log(row);
}

async function measure(target: string, base: string, paths: string[]) {
  report(
    target,
    `each every ${PAGE_INTERVAL_MS / 1000} s`,
    await poll(base, paths, PAGE_INTERVAL_MS, PACED_SECONDS),
  );
  report(target, "back to back", await poll(base, paths, 0, LOOP_SECONDS));
}

/** `count` consumer orders awaiting payment, each placed from its own address. */
async function placeOrders(base: string, count: number): Promise<string[]> {
  const admin = await signInDemoAdmin(base);
  const games = (await admin.get("/api/admin/games")).json as GameDto[];
  const mlbb = games.find((g) => g.supplierName === "mlbb")!;
  const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
  const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
  const price = centsToDollars(
    computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
  );
  const ids: string[] = [];
  for (let start = 0; start < count; start += 10) {
    await Promise.all(Array.from({ length: Math.min(10, count - start) }, async (_, j) => {
      const n = start + j;
      const buyer = consumerAt(base, `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`);
      const r = await buyer.post("/api/payment/hitpay/mlbb", paymentBody(item.nameSupplier, price));
      if (r.status !== 201) throw new Error(`order ${n}: ${r.status} ${r.text}`);
      ids.push(r.json.orderID);
    }));
  }
  return ids;
}

/** Pays every order at the HitPay simulator and waits until none awaits payment. */
async function payAll(base: string, ids: string[]) {
  const requests = await hitpaySim(base, "listRequests") as {
    id: string;
    reference_number: string;
  }[];
  for (const id of ids) {
    await hitpaySim(base, "pay", [requests.find((r) => r.reference_number === id)!.id]);
  }
  await hitpaySim(base, "awaitWebhooks");
  for (const id of ids) {
    const paid = [PAYMENT_RECEIVED, DELIVERED, FAILED];
    const status = await waitForStatus(new TestClient(base), id, paid);
    if (status === AWAITING_PAYMENT) throw new Error(`order ${id} still awaits payment`);
  }
}

if (buildIsStale()) await buildApp();
console.log(`${pollers} pollers; PostgreSQL; load generator, app and database on this machine.`);
console.log("| target | polling | requests | req/s | p50 | p99 | max | failures |");
console.log("| ------ | ------- | -------- | ----- | --- | --- | --- | -------- |");
let bareBody = "";
const before = beforeRef ? await checkoutRevision(beforeRef) : undefined;
const apps = [
  ...(before ? [{ label: `app at ${beforeRef} (before)`, cwd: before.dir }] : []),
  { label: before ? "app (after)" : "app", cwd: undefined },
];
for (const { label, cwd } of apps) {
  for (const workers of workerCounts) {
    Deno.env.set(
      "TEST_DATABASE_URL",
      Deno.env.get("BENCH_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/test",
    );
    const tdb = await createTestDatabase("postgres");
    const env = { WORKERS: String(workers), TRUST_PROXY: "true" };
    const server = await startTestServer(tdb, env, cwd);
    try {
      const ids = await placeOrders(server.url, pollers);
      const paths = ids.map((id) => `/api/order/${id}/status`);
      bareBody ||= await (await fetch(`${server.url}${paths[0]}`)).text();
      await measure(`${label}, WORKERS=${workers}, awaiting payment`, server.url, paths);
      await payAll(server.url, ids);
      await measure(`${label}, WORKERS=${workers}, paid`, server.url, paths);
    } finally {
      await server.stop();
      await tdb.drop();
    }
  }
}
await before?.remove();

const bare = await startBareServer(bareBody, "application/json");
try {
  await measure(
    "ceiling: bare Deno.serve, same bytes",
    bare.url,
    Array.from({ length: pollers }, () => "/"),
  );
} finally {
  await bare.stop();
}

await appendResults(
  "Status poll",
  `npm run bench -- status-poll ${pollers} ${workerCounts.join(",")}${
    beforeRef ? ` ${beforeRef}` : ""
  }`,
  [
    `${pollers} pollers, each polling its own consumer order with \`GET /api/order/{id}/status\`,`,
    "first while the orders await payment (HitPay simulator), then once they are paid: every 3 s",
    "for 30 s, as the result page does, then back to back for 10 s. The ceiling answers the same",
    `bytes (${bareBody}). The load generator (bench/lean-client.ts: one kept-alive`,
    "connection per poller), the app, its workers and PostgreSQL share the machine's cores.",
    "",
    "| target | polling | requests | req/s | p50 | p99 | max | failures |",
    "| ------ | ------- | -------- | ----- | --- | --- | --- | -------- |",
    ...rows,
  ],
);
