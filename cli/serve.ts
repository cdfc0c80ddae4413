import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Command, Option } from "commander";
import { dbOptionsOf, getConfig, resolvePublicOrigin } from "../src/config.ts";
import { closeDb, type Db, getDb, migrateToLatest, withBootstrapLock } from "../src/db/client.ts";
import { ensureFirstAdmin } from "../src/domain/auth/bootstrap.ts";
import { findGoLiveProblems, GoLiveError } from "../src/domain/admin/go-live.ts";
import { buildApp, buildIsStale } from "./build.ts";
import {
  answerInvariants,
  answerOutcomes,
  forwardSimulators,
  mountSimulators,
  serveSimulatorsAlone,
} from "./simulators.ts";
import { seedDemoCatalogue } from "../src/domain/catalogue/demo-catalogue.ts";
import { seedDemoInbox } from "../src/domain/mail/demo-inbox.ts";
import { createSuppliers, getSuppliers, internalBaseUrl } from "../src/integrations/suppliers.ts";
import { createJobRunner, readJobQueue } from "../src/domain/jobs.ts";
import { dashboardRollup } from "../src/domain/admin/dashboard.ts";
import { checkReadiness } from "../src/domain/operations/readiness.ts";
import {
  PROCESS_NAME,
  requestIdFrom,
  type RequestScope,
  runInScope,
} from "../src/observability/context.ts";
import { logger } from "../src/observability/log.ts";
import {
  observeRequest,
  renderMetrics,
  setJobQueue,
  setReady,
  setScrapeFigures,
} from "../src/observability/metrics.ts";
import { readScrapeFigures } from "../src/domain/operations/scrape-figures.ts";
import { timingSafeEqual } from "node:crypto";
import { orderJobHandlers } from "../src/domain/orders/jobs.ts";
import { refundJobHandlers } from "../src/domain/payments/consumer-refunds.ts";
import { getHitPayClient } from "../src/integrations/hitpay/client.ts";
import { mailJobHandlers } from "../src/domain/mail/outbox.ts";
import { getSecretBox } from "../src/domain/auth/app-secret.ts";
import { webhookJobHandlers } from "../src/domain/resellers/webhooks.ts";
import { getMailer } from "../src/integrations/mail/mailer.ts";
import { purgeExpired, refreshOrderStatistics } from "../src/domain/housekeeping.ts";
import { operationsJobHandlers, scheduleOperationsWatch } from "../src/domain/operations/watch.ts";
import { checkLedger } from "../src/domain/ledger/ledger.ts";
import { createStaticFiles } from "../src/server/static-files.ts";
import {
  closeIdleConnections,
  guardConnections,
  readBodyWithinLimits,
  refuseBadTarget,
  refuseUnknownMethod,
} from "./http-guard.ts";
import { createApiRouter } from "../src/api-router.ts";
import { createPageCache } from "../src/server/page-cache.ts";
import { compressAnswer } from "../src/server/compression.ts";
import {
  consumerCatalogueVersion,
  consumerCatalogueWritesHere,
  isConsumerStorefrontPath,
} from "../src/domain/catalogue/consumer-catalogue.ts";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts the whole app in this process: build when sources changed, migrate, make sure an admin
 * exists, then serve the build's client files and the Astro app (the Node adapter in middleware
 * mode) on PORT/HOST. Used by `npm start` with one worker and by the API tests.
 */
export async function startServer(
  options: { build?: boolean; log?: (line: string) => void } = {},
): Promise<RunningServer> {
  const log = options.log ?? console.log;
  const config = getConfig();
  const outcome = await prepare(options.build !== false, log);
  const running = await listen({ reusePort: false, log });
  if (config.mode === "demo" && config.seedDemoCatalogue) await seedDemo(log);
  log(`Serving on ${running.url}  (${config.mode} mode, ${backendName()})`);
  if (config.publicUrl) log(`Public URL: ${config.publicUrl}`);
  if (outcome.kind === "demo") { for (const line of outcome.lines) log(line); }
  return running;
}

function backendName(): string {
  const config = getConfig();
  return config.databaseUrl ? "PostgreSQL" : `PGlite in ${config.dataDir}`;
}

/** What runs once per start, before any worker serves: build, migrations, the first admin. */
async function prepare(build: boolean, log: (line: string) => void) {
  const config = getConfig();
  if (build && buildIsStale()) {
    log("Building the app…");
    await buildApp();
  }
  const db = getDb(dbOptionsOf(config));
  const applied = await migrateToLatest(db);
  if (applied.length) log(`Applied migrations: ${applied.join(", ")}`);
  if (config.mode === "production") {
    const problems = await findGoLiveProblems(db, config);
    if (problems.length) throw new GoLiveError(problems);
  }
  const outcome = await withBootstrapLock(db, (conn) => ensureFirstAdmin(conn, config));
  if (outcome.kind === "created-from-env") {
    log(`Created superadmin ${outcome.email}`);
  }
  return outcome;
}

/**
 * How long the demo's start-up waits for a simulator's answer: a slow answer at start-up is a busy
 * machine, not a supplier fault, and a seed that gave up would stop the server.
 */
const DEMO_SEED_TIMEOUT_MS = 30_000;

/** Demo mode fills an empty catalogue from the simulators, which a listening worker serves. */
async function seedDemo(log: (line: string) => void): Promise<void> {
  const config = getConfig();
  const db = getDb(dbOptionsOf(config));
  const suppliers = createSuppliers(
    config,
    Math.max(config.supplierTimeoutMs, DEMO_SEED_TIMEOUT_MS),
  );
  const seeded = await withBootstrapLock(db, (conn) => seedDemoCatalogue(conn, suppliers));
  if (seeded) log(`Demo catalogue: ${seeded} games`);
  const messages = await seedDemoInbox(db);
  if (messages) log(`Demo inbox: ${messages} emails`);
}

/** Only for the multi-worker API test: which process answered (never in production). */
const pidHeader = Deno.env.get("TOPUP_TEST_WORKER_PID_HEADER") === "1" &&
  Deno.env.get("APP_MODE") !== "production";

/**
 * One serving process: the Astro app, the client files and the mounted simulators on PORT/HOST
 * (with SO_REUSEPORT when several workers share the port), and this process's job runner.
 */
async function listen(
  options: { reusePort: boolean; log: (line: string) => void },
): Promise<RunningServer> {
  const { log } = options;
  const config = getConfig();
  const db = getDb(dbOptionsOf(config));
  const entry = pathToFileURL(resolve("dist/server/entry.mjs")).href;
  const { handler } = (await import(entry)) as { handler: NodeHandler };
  // Production runs no simulator (config refuses them) and forwards /__sim/ nowhere: such paths
  // reach the app, which has no page there (404).
  const simulatorsAt = config.mode === "demo" ? Deno.env.get(SIMULATORS_URL) : undefined;
  const simulators = simulatorsAt ? forwardSimulators(simulatorsAt) : mountSimulators(config);
  const simulated = simulatorsAt !== undefined || simulators.names.length > 0;
  const staticFiles = createStaticFiles(resolve("dist/client"));
  const limits = config.http;
  // /api skips the page framework; API_DISPATCH=astro sends it through Astro, for the
  // api-overhead bench's comparison.
  const apiRouter = Deno.env.get("API_DISPATCH") === "astro" ? undefined : createApiRouter();
  // The consumer storefront's pages are the same for every visitor: rendered once per change of
  // the games they are made of, whose version is read at most once a second (at once after this
  // process wrote to them). PAGE_CACHE=off renders each time, for the consumer-page bench.
  const pageCache = createPageCache(
    Deno.env.get("PAGE_CACHE") === "off" ? () => false : isConsumerStorefrontPath,
    () => consumerCatalogueVersion(db),
    { versionMaxAgeMs: 1000, localWrites: consumerCatalogueWritesHere },
  );
  let stopping = false;
  // The job kinds this process runs, once known: /metrics shows each, at 0 when none is queued.
  let jobKinds: string[] = [];
  const operations = operationsRoutes(db, () => stopping, () => jobKinds);
  const server = createServer((req, res) => {
    // Every request gets an id (a sane incoming X-Request-Id is kept), answered in X-Request-Id
    // and stamped on every log line it causes, the jobs it queues included; its route pattern
    // is noted by whatever serves it (static, the simulators, the /api router, Astro).
    const started = performance.now();
    const path = (req.url ?? "/").split("?")[0];
    // A client's own X-Request-Id would let it write ids (and so forge links between log lines)
    // at will: only the proxy's is kept, and only behind one (TRUST_PROXY).
    const scope: RequestScope = {
      requestId: requestIdFrom(config.trustProxy ? req.headers["x-request-id"] : undefined),
    };
    res.setHeader("x-request-id", scope.requestId);
    // While a stop drains, answers close their connection: keep-alive clients reconnect elsewhere.
    if (stopping) res.setHeader("connection", "close");
    res.once("close", () => finishRequest(req, res, path, scope, started));
    if (pidHeader) res.setHeader("x-worker-pid", String(Deno.pid));
    runInScope(scope, () => {
      if (refuseUnknownMethod(req, res)) return;
      if (operations.handle(req, res, path, scope)) return;
      if (refuseBadTarget(req, res)) return;
      if (path.startsWith("/__sim/")) scope.route = "/__sim";
      if (simulated && answerInvariants(req, res, db, simulatorsAt ?? internalBaseUrl())) return;
      if (simulated && answerOutcomes(req, res, db)) return;
      if (simulators.handle(req, res)) return;
      if (staticFiles.handle(req, res)) {
        scope.route = "static";
        return;
      }
      (async () => {
        const body = await readBodyWithinLimits(req, res, limits);
        if (!body) return;
        // Pages and JSON go compressed when the client accepts it: a page from the page cache
        // in the form it keeps, everything else once it is rendered.
        compressAnswer(req, res);
        if (await pageCache.handle(req, res, handler)) {
          scope.route ??= path;
          return;
        }
        if (apiRouter && await apiRouter.handle(req, res, body)) return;
        // The adapter reads a body given here instead of the (now consumed) stream.
        Object.assign(req, { body });
        handler(req, res);
      })().catch((error) => {
        logger().error({ msg: "serve", err: error });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  guardConnections(server, limits);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(
      { port: config.port, host: config.host, reusePort: options.reusePort },
      () => ok(),
    );
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${shownHost(config.host)}:${port}`;
  // Clients of mounted simulators call this server directly, whatever the public URL.
  Deno.env.set("TOPUP_INTERNAL_URL", internalUrl(config.host, port));
  // Resolved before any request or job can need it: the links they hand out.
  resolvePublicOrigin(config, internalUrl(config.host, port));
  // METRICS_PORT: this process's own port for the operations routes alone, so a scraper (or a
  // probe) reaches each worker, not whichever one the kernel picks on the shared port.
  const operationsServer = config.metricsPort === undefined ? undefined : createServer(
    (req, res) => {
      const path = (req.url ?? "/").split("?")[0];
      if (!operations.handle(req, res, path, { requestId: requestIdFrom(undefined) })) {
        send(res, 404, "text/plain; charset=utf-8", "Not found\n");
      }
    },
  );
  if (operationsServer) {
    const index = Number(Deno.env.get(WORKER_INDEX) ?? 0);
    await new Promise<void>((ok, fail) => {
      operationsServer.once("error", fail);
      operationsServer.listen({ port: config.metricsPort! + index, host: config.host }, () => ok());
    });
  }
  if (simulators.names.length) log(`Simulators mounted: ${simulators.names.join(", ")}`);
  const handlers = {
    ...orderJobHandlers(db, () => getSuppliers(config)),
    ...refundJobHandlers(db, () => getHitPayClient(config)),
    ...operationsJobHandlers(db, () => getSuppliers(config)),
    ...mailJobHandlers(db, () => getMailer(config)),
    ...webhookJobHandlers(db, () => getSecretBox(db, config.appSecret), {
      ...config.webhooks,
      mode: config.mode,
    }),
  };
  jobKinds = Object.keys(handlers);
  const runner = createJobRunner(db, handlers, {
    worker: PROCESS_NAME,
    periodic: [dashboardRollup(db)],
    concurrency: config.jobConcurrency,
  });
  if (config.runJobs) runner.start();
  // Expired sessions and old bookkeeping go hourly; every instance may do it, deletes are idempotent.
  // The orders table's statistics are refreshed at start and hourly (PGlite has no autovacuum).
  // The ledger is checked at start and hourly, for /metrics (topup_ledger_check_ok) and the log.
  const keepHouse = (purge: boolean) => {
    if (purge) {
      purgeExpired(db).catch((error) => logger().error({ msg: "housekeeping", err: error }));
    }
    refreshOrderStatistics(db).catch((error) => logger().error({ msg: "statistics", err: error }));
    checkLedger(db).then(
      (violations) => {
        if (violations.length) {
          logger().error({ msg: "ledger check", violations: violations.length });
        }
      },
      (error) => logger().error({ msg: "ledger check", err: error }),
    );
  };
  keepHouse(false);
  const housekeeping = setInterval(() => keepHouse(true), 3600_000);
  // Supplier balances and alerts: a round now and every WATCH_INTERVAL_SECONDS, one queued at a
  // time whichever instance asks (src/domain/operations/watch.ts).
  const watch = () =>
    scheduleOperationsWatch(db).catch((error) =>
      logger().error({ msg: "operations watch", err: error })
    );
  watch();
  const watching = setInterval(watch, config.watchIntervalSeconds * 1000);
  return {
    url,
    server,
    close: async () => {
      // Drain: /readyz answers 503 first, for drainSeconds, so a load balancer stops sending;
      // then no new connection is taken and the requests in flight finish (kept-alive
      // connections are closed as soon as they are idle), then the job runner stops. A request
      // still unanswered after IN_FLIGHT_GRACE_MS has its connection cut.
      stopping = true;
      if (config.drainSeconds > 0) {
        logger().info({ msg: "draining", seconds: config.drainSeconds });
        await new Promise((ok) => setTimeout(ok, config.drainSeconds * 1000));
      }
      clearInterval(housekeeping);
      clearInterval(watching);
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      closeIdleConnections(server);
      const idle = setInterval(() => closeIdleConnections(server), 100);
      const cut = setTimeout(() => {
        logger().warn({
          msg: "stop: requests still in flight are cut",
          graceMs: IN_FLIGHT_GRACE_MS,
        });
        server.closeAllConnections();
      }, IN_FLIGHT_GRACE_MS);
      await closed;
      clearInterval(idle);
      clearTimeout(cut);
      operationsServer?.closeAllConnections();
      operationsServer?.close();
      await runner.stop();
    },
  };
}

/** How long a stop waits for the requests in flight, after the drain, before cutting them. */
const IN_FLIGHT_GRACE_MS = 10_000;

/** The request's one log line and its metrics, when its answer ends (or the client leaves). */
function finishRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  scope: RequestScope,
  started: number,
): void {
  const seconds = (performance.now() - started) / 1000;
  const route = scope.route ?? "unmatched";
  const method = req.method ?? "GET";
  observeRequest(route, method, res.statusCode, seconds);
  // A load balancer's probes would drown the log: they are counted, not logged.
  if (route === "/healthz" || route === "/readyz") return;
  // The path without its query (which may carry a payment reference or a search), never headers.
  logger().info({
    msg: "request",
    method,
    route,
    path,
    status: res.statusCode,
    ms: Math.round(seconds * 1000),
    ...(res.writableFinished ? {} : { aborted: true }),
  });
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}

/**
 * GET /healthz (the process answers), /readyz (checkReadiness: 200, or 503 naming the failing
 * part) and /metrics (Prometheus text; with METRICS_TOKEN only for its bearer, without it open in
 * demo mode and absent in production): answered before any session, body or page framework.
 */
function operationsRoutes(db: Db, stopping: () => boolean, jobKinds: () => string[]) {
  const config = getConfig();
  const token = config.metricsToken
    ? new TextEncoder().encode(`Bearer ${config.metricsToken}`)
    : undefined;
  const authorized = (header: string | undefined) => {
    if (!token) return config.mode !== "production";
    const given = new TextEncoder().encode(header ?? "");
    return given.length === token.length && timingSafeEqual(given, token);
  };
  let wasReady: boolean | undefined;
  const answers: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>> = {
    "/healthz": (_req, res) => {
      send(res, 200, "text/plain; charset=utf-8", "ok\n");
      return Promise.resolve();
    },
    "/readyz": async (_req, res) => {
      const readiness = await checkReadiness(db, { runJobs: config.runJobs, stopping: stopping() });
      // Each change is logged once, with its details (a probe every few seconds is not).
      if (readiness.ready !== wasReady) {
        wasReady = readiness.ready;
        logger()[readiness.ready ? "info" : "warn"]({ msg: "readiness", ...readiness });
      }
      // Production names the failing part to anyone, and its details (a database's address or
      // error) only to the log and the operations screen.
      const shown = config.mode === "production"
        ? { ...readiness, checks: readiness.checks.map(({ name, ok }) => ({ name, ok })) }
        : readiness;
      send(res, readiness.ready ? 200 : 503, "application/json", JSON.stringify(shown));
    },
    "/metrics": async (req, res) => {
      if (!authorized(req.headers.authorization)) {
        if (!token) return send(res, 404, "text/plain; charset=utf-8", "Not found\n");
        res.setHeader("www-authenticate", 'Bearer realm="metrics"');
        return send(res, 401, "text/plain; charset=utf-8", "Unauthorized\n");
      }
      // What /readyz would answer, for an alert on an instance out of its load balancer.
      setReady(
        (await checkReadiness(db, { runJobs: config.runJobs, stopping: stopping() })).ready,
      );
      // The queue is read from the database at scrape time; without it, its gauges are left out.
      try {
        setJobQueue(await readJobQueue(db, jobKinds()));
      } catch (error) {
        setJobQueue([]);
        logger().warn({ msg: "metrics: job queue unreadable", err: error });
      }
      try {
        setScrapeFigures(await readScrapeFigures(db));
      } catch (error) {
        setScrapeFigures(undefined);
        logger().warn({ msg: "metrics: orders unreadable", err: error });
      }
      const { text, contentType } = await renderMetrics();
      send(res, 200, contentType, text);
    },
  };
  return {
    /** Answers an operations route and returns true; false for any other path. */
    handle(req: IncomingMessage, res: ServerResponse, path: string, scope: RequestScope) {
      const answer = answers[path];
      if (!answer) return false;
      scope.route = path;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        send(res, 405, "text/plain; charset=utf-8", "Method not allowed\n");
        return true;
      }
      answer(req, res).catch((error) => {
        logger().error({ msg: path, err: error });
        if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "Internal error\n");
      });
      return true;
    },
  };
}

const shownHost = (host: string) => host === "0.0.0.0" ? "localhost" : host;
const internalUrl = (host: string, port: number) =>
  `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${port}`;

/** A free port on HOST, chosen before the workers start so that they all bind the same one. */
function freePort(host: string): number {
  const probe = Deno.listen({ hostname: host, port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

const WORKER_READY = "Worker ready: pid ";
/** Which of the workers this one is (0 …): its METRICS_PORT is the first one's plus this. */
const WORKER_INDEX = "TOPUP_WORKER_INDEX";
/** Where a worker forwards /__sim/ requests: the simulators live once, in the supervisor. */
const SIMULATORS_URL = "TOPUP_SIMULATORS_URL";

/**
 * `npm start` with WORKERS > 1 (PostgreSQL): this process builds, migrates and creates the first
 * admin once, then starts WORKERS child processes of `serve --worker` on one port (SO_REUSEPORT:
 * the kernel spreads connections over them), each with its own job runner claiming jobs through
 * the database. The simulators of demo mode live here, once, so that their state is one whatever
 * worker a request reaches. It seeds the demo data through them, prints "Serving on", and stops them all on
 * Ctrl-C or SIGTERM; if one dies, it stops the others and exits with an error.
 */
async function superviseWorkers(build: boolean): Promise<void> {
  const log = console.log;
  const config = getConfig();
  const outcome = await prepare(build, log);
  const port = config.port || freePort(config.host);
  Deno.env.set("TOPUP_INTERNAL_URL", internalUrl(config.host, port));
  resolvePublicOrigin(config, internalUrl(config.host, port));
  const mounted = mountSimulators(config);
  const simulators = mounted.names.length ? await serveSimulatorsAlone(mounted) : undefined;
  if (simulators) log(`Simulators mounted: ${mounted.names.join(", ")}`);
  let stopping = false;
  const decoder = new TextDecoder();
  const children = Array.from({ length: config.workers }, (_, index) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/main.ts", "serve", "--no-build", "--worker"],
      env: {
        PORT: String(port),
        [WORKER_INDEX]: String(index),
        ...(simulators ? { [SIMULATORS_URL]: simulators.url } : {}),
      },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const ready = Promise.withResolvers<void>();
    ready.promise.catch(() => {}); // reported by the Promise.all below, or after it moot
    (async () => {
      let pending = "";
      for await (const chunk of child.stdout) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith(WORKER_READY)) ready.resolve();
          else log(line);
        }
      }
    })();
    child.status.then(({ code }) => {
      ready.reject(new Error(`a worker exited with code ${code} before serving`));
      if (stopping) return;
      console.error(`Worker ${child.pid} exited with code ${code}: stopping the others.`);
      stop(1);
    });
    return { child, ready: ready.promise };
  });
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const { child } of children) {
      try {
        child.kill("SIGTERM");
      } catch {
        // already exited
      }
    }
    await Promise.all(children.map(({ child }) => child.status));
    simulators?.close();
    await closeDb();
    Deno.exit(code);
  };
  Deno.addSignalListener("SIGTERM", () => stop(0));
  Deno.addSignalListener("SIGINT", () => stop(0));
  try {
    await Promise.all(children.map((c) => c.ready));
  } catch (error) {
    console.error(String(error));
    return await stop(1);
  }
  if (config.mode === "demo" && config.seedDemoCatalogue) await seedDemo(log);
  // The workers hold their own pools; this process keeps no connection while it waits.
  await closeDb();
  log(
    `Serving on http://${
      shownHost(config.host)
    }:${port}  (${config.mode} mode, PostgreSQL, ${config.workers} workers)`,
  );
  if (config.publicUrl) log(`Public URL: ${config.publicUrl}`);
  if (outcome.kind === "demo") { for (const line of outcome.lines) log(line); }
}

/** `serve`: what `npm start` runs. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "Build if needed, migrate, and serve the app on PORT (default 8000) with WORKERS processes",
    )
    .option("--no-build", "serve the existing build without checking sources")
    .addOption(new Option("--worker", "one worker of a multi-process start").hideHelp())
    .action(async (opts: { build: boolean; worker?: boolean }) => {
      const config = getConfig();
      if (opts.worker) {
        const running = await listen({ reusePort: true, log: () => {} });
        const stop = stopOnSignal(running);
        console.log(`${WORKER_READY}${Deno.pid}`);
        // The starting process holds our stdin: when it ends, even killed, this worker stops.
        await Deno.stdin.readable.pipeTo(new WritableStream());
        return await stop();
      }
      if (!config.databaseUrl) {
        console.log(
          "PGlite: one worker process (one process owns the data folder; WORKERS needs PostgreSQL)",
        );
      }
      if (config.workers > 1) return await superviseWorkers(opts.build);
      stopOnSignal(await startServer({ build: opts.build }));
    });
}

/**
 * How long a clean stop may take, after its drain, before the process exits anyway (a query that
 * never ends).
 */
const STOP_GRACE_MS = 20_000;

/** Stop cleanly on Ctrl-C or SIGTERM, so PGlite can flush and release its data folder. */
function stopOnSignal(running: RunningServer): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  // A second signal during the drain changes nothing: the stop under way goes on.
  const stop = () => stopping ??= stopOnce();
  const stopOnce = async () => {
    const grace = getConfig().drainSeconds * 1000 + STOP_GRACE_MS;
    const timer = setTimeout(() => {
      logger().error({ msg: `serve: not stopped cleanly within ${grace / 1000} s; exiting` });
      Deno.exit(1);
    }, grace);
    Deno.unrefTimer(timer);
    await running.close();
    await closeDb();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  return stop;
}
