import type { Command } from "commander";
import { createReseller, type PublicReseller } from "../src/domain/auth/users.ts";
import {
  editReseller,
  findLiveResellerByEmail,
  listResellers,
  normalizeMarkup,
} from "../src/domain/resellers/accounts.ts";
import { moveBalance } from "../src/domain/resellers/balance.ts";
import { cliActor } from "../src/domain/actor.ts";
import { migrateToLatest } from "../src/db/client.ts";
import { centsToDollarString, dollarsToCents } from "../src/domain/money.ts";
import { getConfig } from "../src/config.ts";
import { printData, readPassword, withDb } from "./io.ts";
import { registerApiKeyCommands } from "./api-keys.ts";

/** `key=percent` pairs as typed; the domain checks the percents. */
function parseMarkupPairs(pairs: string[]): Record<string, string> {
  const markup: Record<string, string> = {};
  for (const pair of pairs) {
    const [key, value] = pair.split("=");
    if (!key || value === undefined) throw new Error(`--markup expects key=percent, got '${pair}'`);
    markup[key] = value;
  }
  return markup;
}

/**
 * `reseller create|list|topup|deduct|edit|api-key …`: the admin console's reseller actions and
 * the reseller's API keys, audited.
 */
export function registerResellerCommands(program: Command): void {
  const reseller = program.command("reseller").description(
    "Manage resellers, their balances and API keys (every change is audited with the " +
      "operator's login name)",
  );
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
      const markup = normalizeMarkup({
        mlbb: 0,
        mlbb_global: 0,
        mlbb_special: 0,
        ...parseMarkupPairs(opts.markup),
      });
      const password = await readPassword();
      const actor = cliActor();
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
          createdBy: actor.name,
          actor,
        });
      }, { migrates: true });
      printData({
        id: created._id,
        name: created.name,
        email: created.email,
        balance: created.balance,
        twoFAEnabled: created.twoFAEnabled,
      }, !!opts.json);
    });

  reseller
    .command("list")
    .description("List live resellers with their balances")
    .option("--search <text>", "only those whose name, email or phone contains this")
    .option("--json", "print the result as JSON")
    .action(async (opts: { search?: string; json?: boolean }) => {
      const list = await withDb((db) => listResellers(db, opts.search ?? ""));
      if (opts.json) return console.log(JSON.stringify(list, null, 2));
      for (const r of list) {
        console.log(
          `${r.name}\t${r.email}\t${r.phone}\t${centsToDollarString(dollarsToCents(r.balance))}`,
        );
      }
      console.log(`${list.length} reseller(s)`);
    });

  for (const [name, type] of [["topup", "top_up"], ["deduct", "deduct"]] as const) {
    reseller
      .command(name)
      .description(
        type === "top_up"
          ? "Top up a reseller's balance (an 'Account Top up' history row)"
          : "Deduct from a reseller's balance (an 'Account Deduction' row); refused beyond the balance",
      )
      .requiredOption("--email <email>", "the reseller's email")
      .requiredOption("--amount <dollars>", "amount in dollars, e.g. 250.00")
      .option(
        "--idempotency-key <key>",
        "run a retried command once: the same key returns the first result",
      )
      .option("--json", "print the result as JSON")
      .action(
        async (
          opts: { email: string; amount: string; idempotencyKey?: string; json?: boolean },
        ) => {
          const result = await withDb(async (db) => {
            const found = await findLiveResellerByEmail(db, opts.email);
            return await moveBalance(db, {
              resellerId: found._id,
              type,
              amount: opts.amount,
              actor: cliActor(),
              idempotencyKey: opts.idempotencyKey,
              maxDollars: getConfig().balanceMoveMax,
            });
          });
          printData({ ...result }, !!opts.json);
        },
      );
  }

  reseller
    .command("edit")
    .description(
      "Change a reseller's details or markups; the balance moves only with topup and deduct",
    )
    .requiredOption("--email <email>", "the reseller's current email")
    .option("--name <name>", "new display name")
    .option("--phone <phone>", "new phone number")
    .option("--new-email <email>", "new sign-in email")
    .option("--remarks <text>", "new remarks")
    .option("--markup <key=percent...>", "set markups, e.g. mlbb=5 pubgm=3 (others kept)")
    .option("--remove-markup <key...>", "drop game markups (the game's own markup applies)")
    .option("--disable-discounts", "stop applying item discounts to this reseller")
    .option("--enable-discounts", "apply item discounts again")
    .option(
      "--password",
      "set a new password (prompted, or read from standard input); ends their sessions, " +
        "revokes their API keys and disables their webhook",
    )
    .option("--json", "print the result as JSON")
    .action(async (opts: {
      email: string;
      name?: string;
      phone?: string;
      newEmail?: string;
      remarks?: string;
      markup?: string[];
      removeMarkup?: string[];
      disableDiscounts?: boolean;
      enableDiscounts?: boolean;
      password?: boolean;
      json?: boolean;
    }) => {
      if (opts.disableDiscounts && opts.enableDiscounts) {
        throw new Error("--disable-discounts and --enable-discounts cannot both be given");
      }
      const password = opts.password ? await readPassword("New password") : undefined;
      const saved: PublicReseller = await withDb(async (db) => {
        const current = await findLiveResellerByEmail(db, opts.email);
        const markup: Record<string, string | number> = { ...current.markup };
        for (const key of opts.removeMarkup ?? []) delete markup[key];
        Object.assign(markup, parseMarkupPairs(opts.markup ?? []));
        return await editReseller(db, current._id, {
          name: opts.name ?? current.name,
          phone: opts.phone ?? current.phone,
          email: opts.newEmail ?? current.email,
          remarks: opts.remarks ?? current.remarks,
          disableDiscounts: opts.disableDiscounts
            ? true
            : opts.enableDiscounts
            ? false
            : current.disableDiscounts,
          markup,
          password,
        }, cliActor());
      });
      printData({
        id: saved._id,
        name: saved.name,
        email: saved.email,
        phone: saved.phone,
        markup: saved.markup,
        disableDiscounts: saved.disableDiscounts,
        passwordChanged: password !== undefined,
      }, !!opts.json);
    });

  registerApiKeyCommands(reseller);
}
