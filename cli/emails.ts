import type { Command } from "commander";
import { receiveInboundEmail } from "../src/domain/mail/inbound.ts";
import { withDb } from "./io.ts";

/** `emails import FILE.eml...`: puts saved messages in the admin inbox, as the inbound route does. */
export function registerEmailCommands(program: Command): void {
  const emails = program.command("emails").description("The admin Emails inbox");
  emails
    .command("import")
    .description(
      "Put raw RFC 5322 messages (.eml files) in the inbox, parsed and sanitized as the inbound " +
        "route does; a message already there (same Message-ID) is skipped",
    )
    .argument("<files...>", ".eml files")
    .action(async (files: string[]) => {
      await withDb(async (db) => {
        for (const file of files) {
          try {
            const result = await receiveInboundEmail(db, await Deno.readFile(file));
            console.log(
              result.stored
                ? `${file}: imported '${result.subject}'`
                : `${file}: already in the inbox ('${result.subject}')`,
            );
          } catch (error) {
            console.error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
            Deno.exitCode = 1;
          }
        }
      });
    });
}
