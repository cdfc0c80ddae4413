// A shop going live must hold nothing of the demo: no account anyone can sign in to with what
// this repository publishes (the demo's emails and passwords, the README's example), no key the
// demo generated to seal secrets, no demo catalogue priced from the simulators, no demo mail.
// Production start and `doctor` refuse while any of it remains (findGoLiveProblems); `demo
// remove` takes it out on purpose (removeDemoData).

import { createHash } from "node:crypto";
import { type Config, PUBLISHED_PASSWORDS } from "../../config.ts";
import { type Db, migrationState } from "../../db/client.ts";
import {
  type AccountPassword,
  findCheckedDigests,
  listAccountPasswords,
  recordCheckedDigests,
} from "../../db/repositories/password-checks.ts";
import {
  countMailOfDomains,
  deleteDemoSealingKey,
  deleteMailOfDomains,
  deletePendingSessions,
  findDemoSealingKey,
  listSealedValues,
  replaceSealedValue,
} from "../../db/repositories/demo-data.ts";
import {
  deleteGameRow,
  listGameRows,
  updateGameRowAtVersion,
} from "../../db/repositories/games.ts";
import { updateAdminRow } from "../../db/repositories/admins.ts";
import { setResellerPasswordHash } from "../../db/repositories/resellers.ts";
import { deleteUserSessions } from "../../db/repositories/sessions.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { GameRow } from "../../db/schema.ts";
import type { GamePackageDto } from "../../shared/game-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { forEachConcurrently } from "../concurrency.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { passwordWeakness } from "../auth/password-policy.ts";
import { createSecretBox } from "../auth/secret-box.ts";
import { DEMO_ADMIN, DEMO_RESELLER } from "../auth/bootstrap.ts";
import { DEMO_TILE_PREFIX } from "../catalogue/demo-catalogue.ts";
import { removeReseller } from "../resellers/accounts.ts";
import { deleteAdminAs } from "./admins.ts";
import { ValidationError } from "../errors.ts";

/** The demo's mail domains: reserved .test names (RFC 2606) no real mail comes from. */
export const DEMO_MAIL_DOMAINS = ["topup.test", "demo.test"] as const;

/** The sign-in emails the README publishes. */
const PUBLISHED_EMAILS: readonly string[] = [DEMO_ADMIN.email, DEMO_RESELLER.email];

/** The command that removes what the demo left (cli/demo.ts). */
export const DEMO_REMOVE_COMMAND = "npm run cli -- demo remove";

/** Production refuses to start: what makes this database unsafe to take real money with. */
export class GoLiveError extends Error {
  override name = "GoLiveError";
  constructor(readonly problems: string[]) {
    super(
      `Not starting in production mode:\n${problems.map((problem) => `  ${problem}`).join("\n")}`,
    );
  }
}

/** An account anyone can sign in to with what is published. */
export interface PublishedAccount {
  type: "admin" | "reseller";
  id: string;
  email: string;
  why: "a demo account" | "a published password";
}

/** What the demo left in a database. */
export interface DemoLeftovers {
  accounts: PublishedAccount[];
  /** The demo generated and kept a key for sealing secrets. */
  sealingKey: boolean;
  /** Demo games that can still be sold. */
  games: { id: string; name: string }[];
  /** Messages to or from the demo's mail domains. */
  mail: number;
}

function digestOf(hash: string): string {
  return createHash("sha256").update(hash, "utf8").digest("hex");
}

/**
 * The accounts whose password is a published one. Each check costs a scrypt per published
 * password, so a hash found clean is remembered (password_checks) and not checked again.
 */
async function findPublishedPasswords(
  db: Db,
  accounts: AccountPassword[],
): Promise<AccountPassword[]> {
  const digests = new Map(accounts.map((a) => [a, digestOf(a.password_hash)]));
  const checked = new Set(await findCheckedDigests(db, [...digests.values()]));
  const found: AccountPassword[] = [];
  const clean: string[] = [];
  await forEachConcurrently(
    accounts.filter((a) => !checked.has(digests.get(a)!)),
    2,
    async (account) => {
      for (const published of PUBLISHED_PASSWORDS) {
        if (await verifyPassword(published, account.password_hash)) {
          found.push(account);
          return;
        }
      }
      clean.push(digests.get(account)!);
    },
  );
  await recordCheckedDigests(db, clean);
  return found;
}

/** A demo game no one can buy any more: hidden from everyone, it and its packages out of stock. */
function isRetired(game: GameRow): boolean {
  return game.is_hidden && game.is_hidden_consumer && game.is_out_of_stock &&
    (game.packages as GamePackageDto[]).every((p) => p.isOutOfStock);
}

function isDemoGame(game: GameRow): boolean {
  return game.game_image.startsWith(DEMO_TILE_PREFIX);
}

/** Finds everything the demo left: published accounts, its sealing key, catalogue and mail. */
export async function findDemoLeftovers(db: Db): Promise<DemoLeftovers> {
  const all = await listAccountPasswords(db);
  const demo = all.filter((a) => PUBLISHED_EMAILS.includes(a.email));
  const withPublished = await findPublishedPasswords(
    db,
    all.filter((a) => !PUBLISHED_EMAILS.includes(a.email)),
  );
  const account = (why: PublishedAccount["why"]) => (a: AccountPassword): PublishedAccount => ({
    type: a.type,
    id: a.id,
    email: a.email,
    why,
  });
  return {
    accounts: [
      ...demo.map(account("a demo account")),
      ...withPublished.map(account("a published password")),
    ],
    sealingKey: (await findDemoSealingKey(db)) !== undefined,
    games: (await listGameRows(db)).filter((g) => isDemoGame(g) && !isRetired(g))
      .map((g) => ({ id: g.id, name: g.name })),
    mail: await countMailOfDomains(db, DEMO_MAIL_DOMAINS),
  };
}

/** One line per leftover, for the operator; empty when there is none. */
export function describeDemoLeftovers(leftovers: DemoLeftovers): string[] {
  const lines = leftovers.accounts.map((a) =>
    `${a.type} ${a.email}: ${a.why}, anyone can sign in to it with what the README publishes`
  );
  if (leftovers.sealingKey) {
    lines.push("the demo's sealing key (generated by a start without APP_SECRET)");
  }
  if (leftovers.games.length) {
    lines.push(
      `the demo catalogue, priced from the simulators: ${
        leftovers.games.map((g) => g.name).join(", ")
      }`,
    );
  }
  if (leftovers.mail) lines.push(`${leftovers.mail} demo email(s)`);
  return lines;
}

/**
 * Why production must not start on this database with this configuration, one line each: what
 * the demo left (and the command that removes it), and an ADMIN_PASSWORD the password policy
 * refuses.
 */
export async function findGoLiveProblems(db: Db, config: Config): Promise<string[]> {
  const problems: string[] = [];
  const leftovers = describeDemoLeftovers(await findDemoLeftovers(db));
  if (leftovers.length) {
    problems.push(
      `The database holds demo data; remove it with \`${DEMO_REMOVE_COMMAND}\` (it lists what ` +
        "goes and asks first):",
      ...leftovers.map((line) => `  ${line}`),
    );
  }
  if (config.bootstrapAdmin) {
    const weakness = await passwordWeakness(config.bootstrapAdmin.password, {
      email: config.bootstrapAdmin.email,
      name: config.bootstrapAdmin.name,
    });
    if (weakness) problems.push(`ADMIN_PASSWORD: ${weakness}`);
  }
  return problems;
}

/**
 * findGoLiveProblems for `doctor`, which changes nothing: an empty database has nothing of the
 * demo (the server creates its tables at start), and one behind this code's migrations is said
 * to be so rather than half-checked.
 */
export async function inspectDatabaseForGoLive(db: Db, config: Config): Promise<string[]> {
  const { migrated, pending } = await migrationState(db);
  if (!migrated) return [];
  if (pending.length) {
    return [
      `migrations not applied yet (${pending.join(", ")}): run \`npm run cli -- migrate\`, then ` +
      "the doctor again",
    ];
  }
  return await findGoLiveProblems(db, config);
}

/**
 * Seals every secret the demo's key sealed again with the production key, then forgets the demo
 * key: the TOTP secrets of accounts enrolled during the demo keep working, and nothing sealed
 * stays readable with a key anyone with the database holds.
 */
async function retireSealingKey(db: Db, appSecret: string): Promise<number> {
  const demoKey = await findDemoSealingKey(db);
  if (demoKey === undefined) return 0;
  const demoBox = createSecretBox(demoKey);
  const box = createSecretBox(appSecret);
  const values = await listSealedValues(db);
  let resealed = 0;
  await db.transaction().execute(async (trx) => {
    for (const value of values) {
      let plain: string;
      try {
        plain = demoBox.open(value.sealed);
      } catch {
        continue; // Sealed with the production key already.
      }
      await replaceSealedValue(trx, value, box.seal(plain));
      resealed++;
    }
    await deletePendingSessions(trx);
    await deleteDemoSealingKey(trx);
  });
  return resealed;
}

/** Deletes a demo game, or, when orders name it, keeps it for them and stops its sale. */
async function removeDemoGame(db: Db, game: GameRow): Promise<"deleted" | "retired"> {
  try {
    await deleteGameRow(db, game.id);
    return "deleted";
  } catch (error) {
    if (!String((error as Error)?.message).includes("foreign key")) throw error;
  }
  await updateGameRowAtVersion(db, game.id, game.version, {
    is_hidden: true,
    is_hidden_consumer: true,
    is_out_of_stock: true,
    packages: JSON.stringify(
      (game.packages as GamePackageDto[]).map((p) => ({
        ...p,
        isHidden: true,
        isOutOfStock: true,
      })),
    ),
  });
  return "retired";
}

/** A stored hash that no password verifies (passwords.ts reads it as malformed). */
const DISABLED_PASSWORD = "disabled: a published password was removed";

/**
 * Removes what the demo left, on purpose (`demo remove`): deletes the demo admin and the demo
 * reseller (soft, so its orders and balance history stay), disables any other account's published
 * password (its owner gets a new one from an admin), reseals the demo's sealed secrets with
 * APP_SECRET and forgets the demo key, deletes the demo games (a game with orders is kept for
 * them, hidden and out of stock) and the demo mail. Audited. Returns what it did, one line each.
 */
export async function removeDemoData(
  db: Db,
  input: { appSecret?: string; actor: OperatorActor },
): Promise<string[]> {
  const leftovers = await findDemoLeftovers(db);
  if (leftovers.sealingKey && !input.appSecret) {
    throw new ValidationError(
      "APP_SECRET: required to remove the demo's sealing key (the secrets it sealed are sealed " +
        "again with APP_SECRET, the key production uses); set it as the server will have it",
    );
  }
  const done: string[] = [];
  for (const account of leftovers.accounts) {
    if (account.why === "a demo account") {
      if (account.type === "admin") {
        await deleteAdminAs(db, { kind: "cli", name: input.actor.name }, account.id, {
          lastSuperadmin: true,
        });
      } else await removeReseller(db, account.id, input.actor);
      done.push(`deleted ${account.type} ${account.email}`);
      continue;
    }
    await db.transaction().execute(async (trx) => {
      if (account.type === "admin") {
        await updateAdminRow(trx, account.id, { password_hash: DISABLED_PASSWORD });
      } else await setResellerPasswordHash(trx, account.id, DISABLED_PASSWORD);
      await deleteUserSessions(trx, account.type, account.id);
    });
    done.push(
      `disabled the published password of ${account.type} ${account.email} (an admin sets a ` +
        "new one: Admin → Users, or `reseller edit --password` for a reseller)",
    );
  }
  if (leftovers.sealingKey) {
    const resealed = await retireSealingKey(db, input.appSecret!);
    done.push(`sealed ${resealed} secret(s) again with APP_SECRET and removed the demo's key`);
  }
  const games = await listGameRows(db);
  for (const { id } of leftovers.games) {
    const game = games.find((g) => g.id === id)!;
    const outcome = await removeDemoGame(db, game);
    done.push(
      outcome === "deleted"
        ? `deleted game ${game.name}`
        : `hid game ${game.name} and stopped its sale (orders name it)`,
    );
  }
  if (leftovers.mail) {
    const deleted = await db.transaction().execute((trx) =>
      deleteMailOfDomains(trx, DEMO_MAIL_DOMAINS)
    );
    done.push(`deleted ${deleted} demo email(s)`);
  }
  if (done.length) {
    await insertAudit(db, { ...auditActor(input.actor), action: "demo.remove", after: { done } });
  }
  return done;
}
