import type { Command } from "commander";
import { findLiveResellerByEmail } from "../src/domain/resellers/accounts.ts";
import {
  createApiKey,
  listResellerApiKeys,
  revokeAllResellerApiKeys,
  revokeResellerApiKey,
} from "../src/domain/resellers/api-keys.ts";
import { cliActor } from "../src/domain/actor.ts";
import { uuidParam } from "../src/server/http.ts";
import type { ApiKeyDto } from "../src/shared/api-key-types.ts";
import { printData, withDb } from "./io.ts";

/** A key as one line: what an operator needs to tell keys apart and revoke one. */
function keyLine(key: ApiKeyDto): string {
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : "live";
  return `${key.id}\t${key.prefix}…\t${key.name}\tcreated ${key.createdAt}\t` +
    `last used ${key.lastUsedAt ?? "never"}\t${state}`;
}

/**
 * `reseller api-key create|list|revoke`: the same domain functions as My Account and the admin
 * console's reseller page, audited with the operator's login name.
 */
export function registerApiKeyCommands(reseller: Command): void {
  const apiKey = reseller
    .command("api-key")
    .description("A reseller's keys for the reseller API (/api/v1)");

  apiKey
    .command("create")
    .description(
      "Issue an API key for a reseller, as My Account does (audited); the secret is printed once",
    )
    .requiredOption("--email <email>", "the reseller's email")
    .requiredOption("--name <name>", "what the key is for, e.g. 'shop bot'")
    .option("--json", "print the result as JSON")
    .action(async (opts: { email: string; name: string; json?: boolean }) => {
      const actor = cliActor();
      const created = await withDb(async (db) => {
        const found = await findLiveResellerByEmail(db, opts.email);
        return await createApiKey(db, found._id, opts.name, actor);
      });
      printData({ ...created.key, secret: created.secret }, !!opts.json);
    });

  apiKey
    .command("list")
    .description("List a reseller's API keys, newest first, revoked ones included (never secrets)")
    .requiredOption("--email <email>", "the reseller's email")
    .option("--json", "print the keys as JSON")
    .action(async (opts: { email: string; json?: boolean }) => {
      const keys = await withDb(async (db) => {
        const found = await findLiveResellerByEmail(db, opts.email);
        return await listResellerApiKeys(db, found._id);
      });
      if (opts.json) return console.log(JSON.stringify(keys, null, 2));
      for (const key of keys) console.log(keyLine(key));
      console.log(`${keys.length} key(s), ${keys.filter((k) => !k.revokedAt).length} live`);
    });

  apiKey
    .command("revoke")
    .description(
      "Revoke one of a reseller's API keys (--key, its id from `list`) or all its live keys " +
        "(--all), at once for every instance, as the admin console does; audited",
    )
    .requiredOption("--email <email>", "the reseller's email")
    .option("--key <id>", "the key's id, as `reseller api-key list` shows it")
    .option("--all", "every live key of the reseller")
    .option("--json", "print the revoked keys as JSON")
    .action(async (opts: { email: string; key?: string; all?: boolean; json?: boolean }) => {
      if (!!opts.key === !!opts.all) throw new Error("Pass either --key ID or --all");
      const actor = cliActor();
      const revoked = await withDb(async (db) => {
        const found = await findLiveResellerByEmail(db, opts.email);
        return opts.all
          ? await revokeAllResellerApiKeys(db, found._id, actor)
          : [await revokeResellerApiKey(db, found._id, uuidParam(opts.key, "API key"), actor)];
      });
      if (opts.json) return console.log(JSON.stringify(revoked, null, 2));
      for (const key of revoked) console.log(`Revoked ${keyLine(key)}`);
      if (!revoked.length) console.log("No live key to revoke");
    });
}
