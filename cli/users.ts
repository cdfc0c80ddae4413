import type { Command } from "commander";
import { ADMIN_RANKS, createAdmin, createReseller, normalizeEmail } from "../src/domain/users.ts";
import { findAdminByEmail } from "../src/db/repositories/admins.ts";
import { setTotpSecret } from "../src/db/repositories/totp-steps.ts";
import { deleteUserSessions } from "../src/db/repositories/sessions.ts";
import { insertAudit } from "../src/db/repositories/audit-log.ts";
import { migrateToLatest } from "../src/db/client.ts";
import { dollarsToCents } from "../src/domain/money.ts";
import { getConfig } from "../src/config.ts";
import { printData, readPassword, withDb } from "./io.ts";

function parseMarkup(pairs: string[]): Record<string, number> {
  const markup: Record<string, number> = {
    mlbb: 0,
    mlbb_global: 0,
    mlbb_special: 0,
  };
  for (const pair of pairs) {
    const [key, value] = pair.split("=");
    const n = Number(value);
    if (!key || value === undefined || !Number.isFinite(n) || n < 0) {
      throw new Error(`--markup expects key=percent, got '${pair}'`);
    }
    markup[key] = n;
  }
  return markup;
}

/** `admin create`, `admin reset-2fa`, `reseller create`. */
export function registerUserCommands(program: Command): void {
  const admin = program.command("admin").description("Manage admins");
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
          return await createAdmin(db, { ...opts, password, createdBy: "cli" });
        });
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
      await withDb(async (db) => {
        const found = await findAdminByEmail(db, email);
        if (!found) throw new Error(`No admin with email ${email}`);
        await setTotpSecret(db, "admin", found.id, { secretEnc: null, confirmed: false });
        await deleteUserSessions(db, "admin", found.id);
        await insertAudit(db, {
          actorType: "cli",
          action: "admin.reset_2fa",
          targetType: "admin",
          targetId: found.id,
        });
      });
      printData({ email, twoFactor: "reset; sessions ended" }, !!opts.json);
    });

  const reseller = program.command("reseller").description("Manage resellers");
  reseller
    .command("create")
    .description(
      "Create a reseller; the password is prompted, or read from standard input",
    )
    .requiredOption("--name <name>", "display name (unique)")
    .requiredOption("--email <email>", "sign-in email")
    .option("--phone <phone>", "phone number", "")
    .option("--balance <dollars>", "starting balance in dollars", "0")
    .option(
      "--markup <key=percent...>",
      "markup per game key, e.g. mlbb=5 mlbb_global=6",
      [],
    )
    .option("--no-2fa", "let this reseller sign in without two-factor")
    .option(
      "--disable-discounts",
      "do not apply item discounts to this reseller",
    )
    .option("--json", "print the result as JSON")
    .action(async (opts: {
      name: string;
      email: string;
      phone: string;
      balance: string;
      markup: string[];
      "2fa": boolean;
      disableDiscounts?: boolean;
      json?: boolean;
    }) => {
      const balanceCents = dollarsToCents(opts.balance, "--balance");
      const markup = parseMarkup(opts.markup);
      const password = await readPassword();
      const created = await withDb(async (db) => {
        await migrateToLatest(db);
        return await createReseller(db, {
          name: opts.name,
          email: opts.email,
          phone: opts.phone,
          password,
          balanceCents,
          markup,
          disableDiscounts: !!opts.disableDiscounts,
          twoFAEnabled: opts["2fa"] && getConfig().reseller2faDefault,
          createdBy: "cli",
        });
      });
      printData({
        id: created._id,
        name: created.name,
        email: created.email,
        balance: created.balance,
        twoFAEnabled: created.twoFAEnabled,
      }, !!opts.json);
    });
}
