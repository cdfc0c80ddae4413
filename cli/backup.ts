import type { Command } from "commander";
import { backupDatabase, type Progress, restoreDatabase } from "../src/db/backup.ts";
import { cliDatabase, isQuiet } from "./io.ts";

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

/** `backup FILE` and `restore FILE [--force]`. */
export function registerBackupCommands(program: Command): void {
  program
    .command("backup")
    .description(
      "Write the whole database to FILE: PGlite's data folder dump (stop the server first), or " +
        "pg_dump's custom format with DATABASE_URL (pg_dump on PATH)",
    )
    .argument("<file>", "the backup file to write")
    .action(async (file: string) => {
      await backupDatabase(cliDatabase(), file, progressPrinter());
    });

  program
    .command("restore")
    .description(
      "Restore FILE (written by `backup` for the same backend) into the configured database, " +
        "which must be empty; then run `migrate` if the backup is older than this version",
    )
    .argument("<file>", "the backup file to read")
    .option("--force", "replace everything in a database that is not empty")
    .action(async (file: string, opts: { force?: boolean }) => {
      await restoreDatabase(
        cliDatabase({ mayCreate: true }),
        file,
        { force: opts.force ?? false },
        progressPrinter(),
      );
    });
}
