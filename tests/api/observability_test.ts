// /healthz and /readyz for a load balancer (503 while the database is
// gone, and while a stop drains), /metrics in Prometheus text, and the request id that the answer
// carries and the log lines of the jobs and supplier calls it caused repeat.
import assert from "node:assert/strict";
import { connect } from "node:net";
import postgres from "postgres";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { SUPPLIER_CREATE_JOB } from "../../src/domain/orders/place.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const METRICS_TOKEN = "test-metrics-token-0123456789abcdef";

interface Sample {
  value?: string;
  labels?: Record<string, string>;
  count?: string;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

async function scrape(base: string): Promise<Family[]> {
  const r = await fetch(new URL("/metrics", base), {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(await r.text()) as Family[];
}

function samples(families: Family[], name: string): Sample[] {
  const family = families.find((f) => f.name === name);
  assert.ok(family, `${name} is exported`);
  return family.metrics;
}

async function readiness(base: string) {
  const r = await fetch(new URL("/readyz", base));
  return {
    status: r.status,
    body: await r.json() as { ready: boolean; checks: { name: string; ok: boolean }[] },
  };
}

/** The server's JSON log lines (its other lines are the start-up banner). */
function logLines(server: TestServer): Record<string, unknown>[] {
  return server.output().split("\n").filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined) {
  for (let i = 0; i < 200; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test({
  name:
    "[observability] health and readiness without a session; /metrics counts the orders placed; a request id reaches the jobs and supplier calls it caused",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    // Behind a proxy, whose X-Request-Id is kept (serving_test: without one it is replaced).
    const server = await startTestServer(tdb, { METRICS_TOKEN, TRUST_PROXY: "true" });
    try {
      await t.step("/healthz and /readyz answer, /readyz naming each part", async () => {
        const health = await fetch(new URL("/healthz", server.url));
        assert.equal(health.status, 200);
        assert.equal(await health.text(), "ok\n");
        const ready = await readiness(server.url);
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body, {
          ready: true,
          checks: [
            { name: "database", ok: true },
            { name: "migrations", ok: true },
            { name: "jobs", ok: true },
          ],
        });
        const post = await fetch(new URL("/readyz", server.url), { method: "POST" });
        assert.equal(post.status, 405);
        await post.body?.cancel();
      });

      await t.step("/metrics asks for its bearer token", async () => {
        for (const authorization of [undefined, "Bearer wrong", `Basic ${METRICS_TOKEN}`]) {
          const r = await fetch(new URL("/metrics", server.url), {
            headers: authorization ? { authorization } : {},
          });
          assert.equal(r.status, 401, String(authorization));
          assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="metrics"');
          await r.body?.cancel();
        }
      });

      const reseller = await signInDemoReseller(server.url);
      const { body } = await pubgOrder(reseller);
      const requestId = `test-${crypto.randomUUID()}`;
      const placed = 3;

      await t.step("an order's answer carries its request id; a bad one is replaced", async () => {
        const first = await fetch(new URL("/api/reseller/place_order", server.url), {
          method: "POST",
          headers: {
            "content-type": "application/json",
            cookie: [...reseller.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
            "x-request-id": requestId,
          },
          body: JSON.stringify(body),
        });
        assert.equal(first.status, 201, await first.clone().text());
        assert.equal(first.headers.get("x-request-id"), requestId);
        await first.body?.cancel();
        for (const given of ["short", "has spaces in it"]) {
          const r = await reseller.post("/api/reseller/place_order", body, {
            "x-request-id": given,
          });
          assert.equal(r.status, 201, r.text);
          assert.match(r.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
        }
      });

      await t.step("the order's job and its supplier call log the request's id", async () => {
        const lines = await eventually("the job's log line", () => {
          const mine = logLines(server).filter((line) => line.requestId === requestId);
          return mine.some((line) => line.msg === "job") ? mine : undefined;
        });
        const request = lines.find((line) => line.msg === "request")!;
        assert.equal(request.route, "/api/reseller/place_order");
        assert.equal(request.status, 201);
        const job = lines.find((line) => line.msg === "job")!;
        assert.equal(job.kind, SUPPLIER_CREATE_JOB);
        assert.equal(job.outcome, "done");
        const call = lines.find((line) => line.msg === "supplier call")!;
        assert.equal(call.vendor, "elitedias");
        assert.equal(call.endpoint, "elitedias_reseller_topup_api");
      });

      await t.step("/metrics parses as Prometheus text and counts what happened", async () => {
        const families = await scrape(server.url);
        const orders = samples(families, "topup_orders_total")
          .filter((s) => s.labels?.event === "placed");
        assert.deepEqual(
          orders.map((s) => [s.labels?.audience, s.labels?.supplier, Number(s.value)]),
          [["reseller", "elitedias", placed]],
        );
        const requests = samples(families, "topup_http_requests_total").filter((s) =>
          s.labels?.route === "/api/reseller/place_order"
        );
        assert.deepEqual(
          requests.map((s) => [s.labels?.method, s.labels?.status, Number(s.value)]),
          [["POST", "201", placed]],
        );
        assert.equal(
          requests[0].labels?.worker,
          "0",
          "a worker is named by its index, not its pid",
        );
        // The duration histogram is by status class: a full status would multiply its buckets.
        const text = await (await fetch(new URL("/metrics", server.url), {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })).text();
        assert.match(
          text,
          /topup_http_request_duration_seconds_count\{[^}]*route="\/api\/reseller\/place_order"[^}]*status_class="2xx"/,
        );
        assert.doesNotMatch(text, /topup_http_request_duration_seconds_bucket\{[^}]*status="/);
        // The parser folds a labelled histogram's series into one (it reads unlabelled ones only):
        // its family and type are what can be checked here.
        assert.ok(
          families.some((f) =>
            f.name === "topup_http_request_duration_seconds" && f.type === "HISTOGRAM"
          ),
        );
        const calls = samples(families, "topup_supplier_calls_total").filter((s) =>
          s.labels?.endpoint === "elitedias_reseller_topup_api"
        );
        assert.ok(calls.length > 0 && calls.every((s) => s.labels?.vendor === "elitedias"));
        // Checked at start (and hourly) by the server itself.
        assert.deepEqual(samples(families, "topup_ledger_check_ok").map((s) => s.value), ["1"]);
        for (const name of ["topup_jobs_queued", "topup_jobs_oldest_age_seconds"]) {
          assert.ok(families.some((f) => f.name === name && f.type === "GAUGE"), name);
        }
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[observability] SIGTERM drains: /readyz turns 503 first, the request in flight is answered, a connection that sent nothing is closed, then the process exits 0",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      DRAIN_SECONDS: "1",
      SUPPLIER_TIMEOUT_MS: "5000",
      // Longer than the stop's grace: only the stop itself may close the silent connection below.
      HEADERS_TIMEOUT_MS: "60000",
    });
    try {
      const reseller = await signInDemoReseller(server.url);
      await simControl(server.url, "elitedias", "setKnobs", [], { latencyMs: 2500 });
      const inFlight = reseller.post("/api/resellers/verify_id", {
        game: "pubgm",
        userid: "5551234",
        serverid: "",
        reseller: "x",
      });
      // A connection that never sends a request (a client's spare one) holds nothing up.
      const { hostname, port } = new URL(server.url);
      const silent = connect(Number(port), hostname);
      const silentClosed = new Promise((closed) => silent.once("close", closed));
      silent.on("error", () => {});
      // The check has reached the slow simulator before the signal.
      await new Promise((ok) => setTimeout(ok, 500));
      Deno.kill(server.pid, "SIGTERM");
      const draining = await eventually("/readyz 503", async () => {
        const r = await readiness(server.url);
        return r.status === 503 ? r.body : undefined;
      });
      assert.deepEqual(draining.checks.filter((check) => !check.ok).map((check) => check.name), [
        "shutdown",
      ]);
      const answered = await inFlight;
      assert.equal(answered.status, 200, answered.text);
      assert.equal(answered.json.valid, "valid");
      assert.equal(await server.exited(), 0);
      await silentClosed;
      assert.doesNotMatch(server.output(), /requests still in flight are cut/);
    } catch (error) {
      await server.crash().catch(() => {});
      throw new Error(`${error}\n${server.output()}`);
    }
    await tdb.drop();
  },
});

Deno.test({
  name:
    "[observability] /readyz answers 503 naming the database while PostgreSQL refuses this app, 200 once it is back",
  ignore: testBackend() !== "postgres",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    const name = new URL(tdb.env.DATABASE_URL).pathname.slice(1);
    const admin = postgres(Deno.env.get("TEST_DATABASE_URL")!, { max: 1, onnotice: () => {} });
    try {
      assert.equal((await readiness(server.url)).status, 200);
      // The database is gone for the app: no new connection is allowed, the open ones are cut.
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
      const down = await eventually("/readyz 503", async () => {
        const r = await readiness(server.url);
        return r.status === 503 ? r.body : undefined;
      });
      assert.equal(down.ready, false);
      assert.deepEqual(down.checks.filter((check) => !check.ok).map((check) => check.name), [
        "database",
        "migrations",
      ]);
      const health = await fetch(new URL("/healthz", server.url));
      assert.equal(health.status, 200, "the process itself still answers");
      await health.body?.cancel();

      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      const up = await eventually("/readyz 200", async () => {
        const r = await readiness(server.url);
        return r.status === 200 ? r.body : undefined;
      });
      assert.equal(up.ready, true);
    } finally {
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
      await server.stop();
      await tdb.drop();
    }
  },
});

/** A port p with p + 1 free too, for two workers' METRICS_PORT. */
function twoFreePorts(): number {
  for (;;) {
    const first = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (first.addr as Deno.NetAddr).port;
    try {
      Deno.listen({ hostname: "127.0.0.1", port: port + 1 }).close();
      return port;
    } catch {
      // taken: try another
    } finally {
      first.close();
    }
  }
}

Deno.test({
  name:
    "[observability] with WORKERS=2 and METRICS_PORT each worker answers /metrics and /readyz for itself on its own port, labelled",
  ignore: testBackend() !== "postgres",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const metricsPort = twoFreePorts();
    const server = await startTestServer(tdb, {
      WORKERS: "2",
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN,
    });
    try {
      const workers = new Set<string>();
      for (const port of [metricsPort, metricsPort + 1]) {
        const base = `http://127.0.0.1:${port}`;
        assert.equal((await readiness(base)).status, 200);
        // Every labelled sample this port exports, whatever its family, names one worker. (The
        // HTTP counters alone may be empty here: this port's own requests are not counted, and
        // the kernel may have sent every request on the shared port to the other worker.)
        const labels = (await scrape(base)).flatMap((family) =>
          family.metrics.flatMap((sample) => sample.labels?.worker ?? [])
        );
        assert.ok(labels.length > 0, "the port exports samples");
        assert.equal(new Set(labels).size, 1, `one worker per port: ${labels}`);
        workers.add(labels[0]!);
        const other = await fetch(new URL("/api/current_user", base));
        assert.equal(other.status, 404, "the operations port serves nothing else");
        await other.body?.cancel();
      }
      assert.equal(workers.size, 2);
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
