import type { Command } from "commander";
import { ADMIN_RANKS, normalizeEmail } from "../src/domain/auth/users.ts";
import { createAdminAs } from "../src/domain/admin/admins.ts";
import { resetAdminTwoFactor } from "../src/domain/auth/auth.ts";
import { migrateToLatest } from "../src/db/client.ts";
import { printData, readPassword, withDb } from "./io.ts";
import { registerAdminManagement } from "./admins.ts";
import { cliActor } from "../src/domain/actor.ts";

/** `admin create`, `admin reset-2fa`. */
export function registerUserCommands(program: Command): void {
  const admin = program.command("admin").description("Manage admins");
  registerAdminManagement(admin);
  admin
    .command("create")
    .description(
      "Create an admin; the password is prompted, or read from standard input",
    )
    .requiredOption("--name <name>", "display name")
    .requiredOption("--email <email>", "sign-in email")
    .option("--rank <rank>", `one of ${ADMIN_RANKS.join(", ")}`, "Admin")
    .option("--json", "print the result as JSON")
    .action(
      async (
        opts: { name: string; email: string; rank: string; json?: boolean },
      ) => {
        if (!ADMIN_RANKS.includes(opts.rank as (typeof ADMIN_RANKS)[number])) {
          throw new Error(`--rank must be one of ${ADMIN_RANKS.join(", ")}`);
        }
        const password = await readPassword();
        const created = await withDb(async (db) => {
          await migrateToLatest(db);
          return await createAdminAs(db, { kind: "cli", name: cliActor().name }, {
            ...opts,
            password,
          });
        }, { migrates: true });
        printData({
          id: created._id,
          name: created.name,
          email: created.email,
          rank: created.rank,
        }, !!opts.json);
      },
    );

  admin
    .command("reset-2fa")
    .description(
      "Clear an admin's authenticator; the next sign-in shows a new QR code",
    )
    .requiredOption("--email <email>", "the admin's email")
    .option("--json", "print the result as JSON")
    .action(async (opts: { email: string; json?: boolean }) => {
      const email = normalizeEmail(opts.email);
      await withDb((db) => resetAdminTwoFactor(db, email, cliActor()));
      printData({ email, twoFactor: "reset; sessions ended" }, !!opts.json);
    });
}
