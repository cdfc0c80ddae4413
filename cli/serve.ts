import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Command, Option } from "commander";
import { dbOptionsOf, getConfig } from "../src/config.ts";
import { closeDb, getDb, migrateToLatest, withBootstrapLock } from "../src/db/client.ts";
import { ensureFirstAdmin } from "../src/domain/auth/bootstrap.ts";
import { buildApp, buildIsStale } from "./build.ts";
import {
  answerInvariants,
  forwardSimulators,
  mountSimulators,
  serveSimulatorsAlone,
} from "./simulators.ts";
import { seedDemoCatalogue } from "../src/domain/catalogue/demo-catalogue.ts";
import { seedDemoInbox } from "../src/domain/mail/demo-inbox.ts";
import { getSuppliers, internalBaseUrl } from "../src/integrations/suppliers.ts";
import { createJobRunner } from "../src/domain/jobs.ts";
import { dashboardRollup } from "../src/domain/admin/dashboard.ts";
import { orderJobHandlers } from "../src/domain/orders/jobs.ts";
import { mailJobHandlers } from "../src/domain/mail/outbox.ts";
import { getSecretBox } from "../src/domain/auth/app-secret.ts";
import { webhookJobHandlers } from "../src/domain/resellers/webhooks.ts";
import { getMailer } from "../src/integrations/mail/mailer.ts";
import { purgeExpired, refreshOrderStatistics } from "../src/domain/housekeeping.ts";
import { hostname } from "node:os";
import { createStaticFiles } from "../src/server/static-files.ts";
import { guardConnections, readBodyWithinLimits, refuseBadTarget } from "./http-guard.ts";
import { createApiRouter } from "../src/api-router.ts";
import { createPageCache } from "../src/server/page-cache.ts";
import {
  consumerCatalogueVersion,
  consumerCatalogueWritesHere,
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
  const outcome = await withBootstrapLock(db, (conn) => ensureFirstAdmin(conn, config));
  if (outcome.kind === "created-from-env") {
    log(`Created superadmin ${outcome.email}`);
  }
  return outcome;
}

/** Demo mode fills an empty catalogue from the simulators, which a listening worker serves. */
async function seedDemo(log: (line: string) => void): Promise<void> {
  const config = getConfig();
  const db = getDb(dbOptionsOf(config));
  const seeded = await withBootstrapLock(
    db,
    (conn) => seedDemoCatalogue(conn, getSuppliers(config)),
  );
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
  // /api skips the page framework (issue 10); API_DISPATCH=astro sends it through Astro, for the
  // api-overhead bench's comparison.
  const apiRouter = Deno.env.get("API_DISPATCH") === "astro" ? undefined : createApiRouter();
  // The consumer storefront's pages are the same for every visitor: rendered once per change of
  // the games they are made of, whose version is read at most once a second (at once after this
  // process wrote to them). PAGE_CACHE=off renders each time, for the consumer-page bench.
  const pageCache = createPageCache(
    Deno.env.get("PAGE_CACHE") === "off" ? [] : ["/consumers", "/consumers/mobile-legends"],
    () => consumerCatalogueVersion(db),
    { versionMaxAgeMs: 1000, localWrites: consumerCatalogueWritesHere },
  );
  const server = createServer((req, res) => {
    if (pidHeader) res.setHeader("x-worker-pid", String(Deno.pid));
    if (refuseBadTarget(req, res)) return;
    if (simulated && answerInvariants(req, res, db, simulatorsAt ?? internalBaseUrl())) return;
    if (simulators.handle(req, res) || staticFiles.handle(req, res)) return;
    (async () => {
      const body = await readBodyWithinLimits(req, res, limits);
      if (!body) return;
      if (await pageCache.handle(req, res, handler)) return;
      if (apiRouter && await apiRouter.handle(req, res, body)) return;
      // The adapter reads a body given here instead of the (now consumed) stream.
      Object.assign(req, { body });
      handler(req, res);
    })().catch((error) => {
      console.error(`serve: ${error instanceof Error ? error.stack : error}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
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
  if (simulators.names.length) log(`Simulators mounted: ${simulators.names.join(", ")}`);
  const handlers = {
    ...orderJobHandlers(db, () => getSuppliers(config)),
    ...mailJobHandlers(db, () => getMailer(config)),
    ...webhookJobHandlers(db, () => getSecretBox(db, config.appSecret), {
      ...config.webhooks,
      mode: config.mode,
    }),
  };
  const runner = createJobRunner(db, handlers, {
    worker: `${hostname()}:${Deno.pid}`,
    periodic: [dashboardRollup(db)],
    concurrency: config.jobConcurrency,
  });
  if (config.runJobs) runner.start();
  // Expired sessions and old bookkeeping go hourly; every instance may do it, deletes are idempotent.
  // The orders table's statistics are refreshed at start and hourly (PGlite has no autovacuum).
  const keepHouse = (purge: boolean) => {
    if (purge) purgeExpired(db).catch((error) => console.error(`housekeeping: ${error}`));
    refreshOrderStatistics(db).catch((error) => console.error(`statistics: ${error}`));
  };
  keepHouse(false);
  const housekeeping = setInterval(() => keepHouse(true), 3600_000);
  return {
    url,
    server,
    close: async () => {
      clearInterval(housekeeping);
      await runner.stop();
      await new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      });
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
  const mounted = mountSimulators(config);
  const simulators = mounted.names.length ? await serveSimulatorsAlone(mounted) : undefined;
  if (simulators) log(`Simulators mounted: ${mounted.names.join(", ")}`);
  let stopping = false;
  const decoder = new TextDecoder();
  const children = Array.from({ length: config.workers }, () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/main.ts", "serve", "--no-build", "--worker"],
      env: { PORT: String(port), ...(simulators ? { [SIMULATORS_URL]: simulators.url } : {}) },
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

/** How long a clean stop may take before the process exits anyway (a query that never ends). */
const STOP_GRACE_MS = 20_000;

/** Stop cleanly on Ctrl-C or SIGTERM, so PGlite can flush and release its data folder. */
function stopOnSignal(running: RunningServer): () => Promise<void> {
  const stop = async () => {
    const timer = setTimeout(() => {
      console.error(`serve: not stopped cleanly within ${STOP_GRACE_MS / 1000} s; exiting`);
      Deno.exit(1);
    }, STOP_GRACE_MS);
    Deno.unrefTimer(timer);
    await running.close();
    await closeDb();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  return stop;
}
