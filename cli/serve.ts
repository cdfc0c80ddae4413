import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import { getConfig } from "../src/config.ts";
import { closeDb, getDb, migrateToLatest, withBootstrapLock } from "../src/db/client.ts";
import { ensureFirstAdmin } from "../src/domain/bootstrap.ts";
import { buildApp, buildIsStale } from "./build.ts";
import { mountSimulators } from "./simulators.ts";
import { seedDemoCatalogue } from "../src/domain/demo-catalogue.ts";
import { getSuppliers } from "../src/integrations/suppliers.ts";
import { createJobRunner } from "../src/domain/jobs.ts";
import { orderJobHandlers } from "../src/domain/orders/jobs.ts";
import { mailJobHandlers } from "../src/domain/mail/outbox.ts";
import { getMailer } from "../src/integrations/mail/mailer.ts";
import { purgeExpired } from "../src/domain/housekeeping.ts";
import { hostname } from "node:os";
import { createStaticFiles } from "../src/server/static-files.ts";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts the whole app: build when sources changed, migrate, make sure an admin exists, then serve
 * the build's client files and the Astro app (the Node adapter in middleware mode) on PORT/HOST.
 * Used by `npm start` and by the API tests.
 */
export async function startServer(
  options: { build?: boolean; log?: (line: string) => void } = {},
): Promise<RunningServer> {
  const log = options.log ?? console.log;
  const config = getConfig();
  if (options.build !== false && buildIsStale()) {
    log("Building the app…");
    await buildApp();
  }
  const db = getDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const applied = await migrateToLatest(db);
  if (applied.length) log(`Applied migrations: ${applied.join(", ")}`);
  const outcome = await withBootstrapLock(db, (conn) => ensureFirstAdmin(conn, config));
  if (outcome.kind === "created-from-env") {
    log(`Created superadmin ${outcome.email}`);
  }

  const entry = pathToFileURL(resolve("dist/server/entry.mjs")).href;
  const { handler } = (await import(entry)) as { handler: NodeHandler };
  const simulators = mountSimulators(config);
  const staticFiles = createStaticFiles(resolve("dist/client"));
  const server = createServer((req, res) => {
    try {
      decodeURI(req.url ?? "/");
    } catch {
      res.writeHead(400).end("Bad request.");
      return;
    }
    if (!simulators.handle(req, res) && !staticFiles.handle(req, res)) handler(req, res);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(config.port, config.host, () => ok());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const shownHost = config.host === "0.0.0.0" ? "localhost" : config.host;
  const url = `http://${shownHost}:${port}`;
  // Clients of mounted simulators call this server directly, whatever the public URL.
  const loopback = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  Deno.env.set("TOPUP_INTERNAL_URL", `http://${loopback}:${port}`);
  if (simulators.names.length) log(`Simulators mounted: ${simulators.names.join(", ")}`);
  if (config.mode === "demo" && config.seedDemoCatalogue) {
    const seeded = await withBootstrapLock(
      db,
      (conn) => seedDemoCatalogue(conn, getSuppliers(config)),
    );
    if (seeded) log(`Demo catalogue: ${seeded} games`);
  }
  log(
    `Serving on ${url}  (${config.mode} mode, ${
      config.databaseUrl ? "PostgreSQL" : `PGlite in ${config.dataDir}`
    })`,
  );
  if (config.publicUrl) log(`Public URL: ${config.publicUrl}`);
  const handlers = {
    ...orderJobHandlers(db, () => getSuppliers(config)),
    ...mailJobHandlers(db, () => getMailer(config)),
  };
  const runner = createJobRunner(db, handlers, { worker: `${hostname()}:${Deno.pid}` });
  if (config.runJobs) runner.start();
  // Expired sessions and old bookkeeping go hourly; every instance may do it, deletes are idempotent.
  const housekeeping = setInterval(() => {
    purgeExpired(db).catch((error) => console.error(`housekeeping: ${error}`));
  }, 3600_000);
  if (outcome.kind === "demo") { for (const line of outcome.lines) log(line); }
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

/** `serve`: what `npm start` runs. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "Build if needed, migrate, and serve the app on PORT (default 8000)",
    )
    .option("--no-build", "serve the existing build without checking sources")
    .action(async (opts: { build: boolean }) => {
      const running = await startServer({ build: opts.build });
      // Stop cleanly so PGlite can flush and release its data folder.
      const stop = async () => {
        await running.close();
        await closeDb();
        Deno.exit(0);
      };
      Deno.addSignalListener("SIGTERM", stop);
      Deno.addSignalListener("SIGINT", stop);
    });
}
