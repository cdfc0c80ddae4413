import type { Command } from "commander";
import { adminIdByEmail, deleteAdminAs, listAdminsMatching } from "../src/domain/admin/admins.ts";
import { printData, withDb } from "./io.ts";
import { cliActor } from "../src/domain/actor.ts";

/** `admin list` and `admin delete`: the Admins tab's list and delete, same rules and audit rows. */
export function registerAdminManagement(admin: Command): void {
  admin
    .command("list")
    .description("List admins; --search matches name, email or rank (any case)")
    .option("--search <text>", "substring of name, email or rank")
    .option("--json", "print the result as JSON")
    .action(async (opts: { search?: string; json?: boolean }) => {
      const admins = await withDb((db) => listAdminsMatching(db, opts.search));
      const rows = admins.map((a) => ({ id: a._id, name: a.name, email: a.email, rank: a.rank }));
      if (opts.json) console.log(JSON.stringify(rows, null, 2));
      else for (const r of rows) console.log(`${r.email}\t${r.rank}\t${r.name}\t${r.id}`);
    });

  admin
    .command("delete")
    .description(
      "Delete an admin and end their sessions; the last superadmin cannot be deleted; audited",
    )
    .requiredOption("--email <email>", "the admin's email")
    .option("--json", "print the result as JSON")
    .action(async (opts: { email: string; json?: boolean }) => {
      const id = await withDb(async (db) => {
        const id = await adminIdByEmail(db, opts.email);
        await deleteAdminAs(db, { kind: "cli", name: cliActor().name }, id);
        return id;
      });
      printData({ deleted: opts.email.trim().toLowerCase(), id }, !!opts.json);
    });
}
