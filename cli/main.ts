import { Command } from "commander";
import { registerServe } from "./serve.ts";
import { registerDbCommands } from "./db.ts";
import { registerUserCommands } from "./users.ts";
import { registerResellerCommands } from "./resellers.ts";
import { registerCatalogueCommands } from "./catalogue.ts";
import { registerOrdersExport } from "./orders-export.ts";
import { registerOrdersRefresh } from "./orders-refresh.ts";
import { registerWorker } from "./worker.ts";
import { registerAuditCommand } from "./audit.ts";
import { registerEmailCommands } from "./emails.ts";
import { registerOrdersConfirmPayment, registerPaymentCommands } from "./payments.ts";
import { registerJobCommands, registerOrdersRefund, registerOrdersReview } from "./review.ts";
import { registerDoctorCommand } from "./doctor.ts";
import { registerStatusCommand } from "./status.ts";
import { registerBackupCommands } from "./backup.ts";
import { registerDemoCommands } from "./demo.ts";
import { sendLogsToStderr } from "../src/observability/log.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { setQuiet } from "./io.ts";
import pkg from "../package.json" with { type: "json" };

const program = new Command()
  .name("topup")
  .description(
    "Operator CLI for the top-up store: run `npm run cli -- <command> --help`",
  )
  .version(
    `topup ${pkg.version} (migrations up to ${Object.keys(MIGRATIONS).at(-1)})`,
    "-V, --version",
    "print the version and the last migration it knows",
  )
  .option("-q, --quiet", "print only what needs a person: errors and warnings (cron)")
  .showHelpAfterError()
  // A command's stdout is its answer (--json, CSV) for scripts; its log lines go to stderr. The
  // server and the worker keep stdout, where a log collector reads them.
  .hook("preAction", (program, command) => {
    setQuiet(program.opts().quiet ?? false);
    if (!["serve", "worker"].includes(command.name())) sendLogsToStderr();
  });

registerServe(program);
registerDbCommands(program);
registerUserCommands(program);
registerResellerCommands(program);
registerCatalogueCommands(program);
const orders = program.command("orders").description("Reseller and consumer orders");
registerOrdersRefresh(orders);
registerOrdersExport(orders);
registerOrdersConfirmPayment(orders);
registerOrdersReview(orders);
registerOrdersRefund(orders);
registerPaymentCommands(program);
registerWorker(program);
registerJobCommands(program);
registerAuditCommand(program);
registerEmailCommands(program);
registerDoctorCommand(program);
registerStatusCommand(program);
registerBackupCommands(program);
registerDemoCommands(program);

try {
  await program.parseAsync(["node", "topup", ...Deno.args]);
} catch (error) {
  console.error(
    `Error: ${error instanceof Error ? error.message : String(error)}`,
  );
  Deno.exit(1);
}
