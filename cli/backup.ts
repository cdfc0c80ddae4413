import type { Command } from "commander";
import { backupDatabase, type Progress, restoreDatabase } from "../src/db/backup.ts";
import { cliDatabase, confirmOrRefuse, databaseName, isQuiet } from "./io.ts";

/**
 * Progress for a terminal: a step's passing lines overwrite each other on one line; elsewhere
 * (a log, a cron mail) only the lines that end a step are printed; with --quiet, none.
 */
function progressPrinter(): Progress {
  if (isQuiet()) return () => {};
  const terminal = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  return (line, final) => {
    if (terminal) Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${line}${final ? "\n" : ""}`));
    else if (final) console.error(line);
  };
}

/**
 * An AbortSignal raised by Ctrl-C or SIGTERM while `work` runs, so a stopped backup removes its
 * partial file instead of the process dying with it in place.
 */
async function stoppable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  try {
    return await work(controller.signal);
  } finally {
    Deno.removeSignalListener("SIGINT", stop);
    Deno.removeSignalListener("SIGTERM", stop);
  }
}

/** `backup FILE` and `restore FILE [--force [--yes]]`. */
export function registerBackupCommands(program: Command): void {
  program
    .command("backup")
    .description(
      "Write the whole database to FILE, readable by its owner only: PGlite's data folder dump " +
        "(stop the server first), or pg_dump's custom format with DATABASE_URL (pg_dump on " +
        "PATH). FILE is replaced only once the new backup is whole",
    )
    .argument("<file>", "the backup file to write")
    .option("--json", "print the result as JSON")
    .action(async (file: string, opts: { json?: boolean }) => {
      const options = cliDatabase();
      const written = await stoppable((signal) =>
        backupDatabase(options, file, progressPrinter(), signal)
      );
      if (opts.json) {
        console.log(JSON.stringify({ file, database: databaseName(options), ...written }));
      }
    });

  program
    .command("restore")
    .description(
      "Restore FILE (written by `backup` for the same backend) into the configured database, " +
        "which must be empty unless --force; the whole file goes in or nothing changes. Then run " +
        "`migrate` if the backup is older than this version",
    )
    .argument("<file>", "the backup file to read")
    .option(
      "--force",
      "replace everything in a database that is not empty (asks first; its other sessions must " +
        "have ended)",
    )
    .option(
      "--yes",
      "confirm --force without being asked (scripts; there is no terminal to ask on)",
    )
    .option("--json", "print the result as JSON")
    .action(async (file: string, opts: { force?: boolean; yes?: boolean; json?: boolean }) => {
      const options = cliDatabase({ mayCreate: true });
      const name = databaseName(options);
      const restored = await restoreDatabase(options, file, {
        force: opts.force ?? false,
        confirm: (tables) =>
          confirmOrRefuse(
            `restore --force replaces everything in ${name} (${tables} tables) with ${file}`,
            "replace",
            opts.yes,
          ),
      }, progressPrinter());
      if (opts.json) console.log(JSON.stringify({ file, database: name, ...restored }));
    });
}
