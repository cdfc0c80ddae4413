import type { Command } from "commander";
import { hostname } from "node:os";
import { createJobRunner } from "../src/domain/jobs.ts";
import { orderJobHandlers } from "../src/domain/orders/jobs.ts";
import { closeDb } from "../src/db/client.ts";
import { cliSuppliers, openDb } from "./io.ts";

/** `worker`: runs only the job queue, for a box that serves no HTTP. */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("Run the job queue (supplier calls after orders) until stopped")
    .action(() => {
      const db = openDb();
      const runner = createJobRunner(db, orderJobHandlers(db, cliSuppliers), {
        worker: `${hostname()}:${Deno.pid}:worker`,
      });
      runner.start();
      console.log("Worker running; Ctrl-C stops it.");
      const stop = async () => {
        await runner.stop();
        await closeDb();
        Deno.exit(0);
      };
      Deno.addSignalListener("SIGTERM", stop);
      Deno.addSignalListener("SIGINT", stop);
    });
}
