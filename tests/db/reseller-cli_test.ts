import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { findLiveResellerByName } from "../../src/domain/resellers/accounts.ts";
import { userInfo } from "node:os";
import { runCli } from "../helpers/cli.ts";

Deno.test({
  name:
    "[cli] reseller topup, deduct and edit use the console's rules and audit the operator; list and ledger check read them",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const decoder = new TextDecoder();
    const cli = async (args: string[], stdin?: string) => {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "cli/main.ts", ...args],
        env: { ...tdb.env, USER: "ops-olga" },
        stdin: stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      if (stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(stdin));
        await writer.close();
      }
      const out = await child.output();
      return {
        code: out.code,
        stdout: decoder.decode(out.stdout),
        stderr: decoder.decode(out.stderr),
      };
    };
    try {
      await withHandle(tdb, (db) =>
        createTestReseller(db, {
          name: "Ola Reseller",
          email: "ola@resell.example",
          password: "ola's first password",
          balanceCents: 2000,
          markup: { mlbb: 1, mlbb_global: 1, mlbb_special: 1, pubgm: 2 },
        }));

      const args = ["reseller", "topup", "--email", "ola@resell.example", "--amount", "10.50"];
      const key = ["--idempotency-key", "retry-1", "--json"];
      const first = await cli([...args, ...key]);
      assert.equal(first.code, 0, first.stderr);
      const again = await cli([...args, ...key]);
      assert.deepEqual(JSON.parse(again.stdout), JSON.parse(first.stdout));
      assert.equal(JSON.parse(first.stdout).newBalance, 30.5);

      const short = await cli([
        "reseller",
        "deduct",
        "--email",
        "ola@resell.example",
        "--amount",
        "31",
      ]);
      assert.equal(short.code, 1);
      assert.match(short.stderr, /Cannot deduct \$31\.00: Ola Reseller's balance is only \$30\.50/);
      const deduct = await cli([
        "reseller",
        "deduct",
        "--email",
        "ola@resell.example",
        "--amount",
        "0.5",
      ]);
      assert.equal(deduct.code, 0, deduct.stderr);

      const edit = await cli(
        [
          "reseller",
          "edit",
          "--email",
          "ola@resell.example",
          "--name",
          "Ola Renamed",
          "--markup",
          "mlbb=3.5",
          "--remove-markup",
          "pubgm",
          "--password",
        ],
        "ola's second password\n",
      );
      assert.equal(edit.code, 0, edit.stderr);
      const list = await cli(["reseller", "list", "--search", "RENAMED", "--json"]);
      const [ola] = JSON.parse(list.stdout);
      assert.equal(ola.balance, 30);
      assert.deepEqual(ola.markup, { mlbb: 3.5, mlbb_global: 1, mlbb_special: 1 });

      const check = await cli(["ledger", "check"]);
      assert.equal(check.code, 0, check.stdout);

      const audit = await withHandle(
        tdb,
        (db) =>
          db.selectFrom("audit_log").select(["action", "actor_type", "actor_name", "after"])
            .where("actor_type", "=", "cli").orderBy("id").execute(),
      );
      assert.deepEqual(audit.map((a) => [a.action, a.actor_name]), [
        ["reseller.top_up", "ops-olga"],
        ["reseller.deduct", "ops-olga"],
        ["reseller.update", "ops-olga"],
      ]);
      assert.equal((audit[2].after as { passwordChanged: boolean }).passwordChanged, true);
      assert.doesNotMatch(JSON.stringify(audit), /second password|scrypt/);
      const rows = await withHandle(
        tdb,
        (db) => db.selectFrom("balance_history").select(["type", "actor"]).orderBy("id").execute(),
      );
      assert.deepEqual(rows, [
        { type: "initial", actor: "test" },
        { type: "top_up", actor: "ops-olga" },
        { type: "deduct", actor: "ops-olga" },
      ]);
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[cli] orders export --reseller finds the live reseller by name in any case, and refuses a name no reseller has",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    try {
      await withHandle(tdb, async (db) => {
        const shop = await createTestReseller(db, {
          name: "Nova Shop",
          email: "nova@test.example",
          password: "long enough password",
          balanceCents: 0,
        });
        assert.deepEqual(await findLiveResellerByName(db, "  nova SHOP "), {
          id: shop._id,
          name: "Nova Shop",
        });
        await assert.rejects(findLiveResellerByName(db, "Nobody"), /No reseller named 'Nobody'/);
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name: "[cli] with USER unset, an audited command records the operator's login name, never 'cli'",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    try {
      await withHandle(tdb, (db) =>
        createTestReseller(db, {
          name: "Una Reseller",
          email: "una@resell.example",
          password: "una's long password",
          balanceCents: 0,
        }));
      // runCli passes no USER or LOGNAME: as under cron's `env -i` or a bare container shell.
      const topup = await runCli(
        ["reseller", "topup", "--email", "una@resell.example", "--amount", "5"],
        tdb.env,
      );
      assert.equal(topup.code, 0, topup.stderr);
      const actors = await withHandle(
        tdb,
        (db) =>
          db.selectFrom("audit_log").select(["actor_type", "actor_name"])
            .where("action", "=", "reseller.top_up").execute(),
      );
      assert.deepEqual(actors, [{ actor_type: "cli", actor_name: userInfo().username }]);
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[cli] reseller api-key list and revoke use the console's domain functions, audited with the operator's name",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const env = { ...tdb.env, USER: "ops-kim" };
    const key = (args: string[]) =>
      runCli(["reseller", "api-key", ...args, "--email", "kai@resell.example", "--json"], env);
    try {
      await withHandle(tdb, (db) =>
        createTestReseller(db, {
          name: "Kai Reseller",
          email: "kai@resell.example",
          password: "kai's long password",
          balanceCents: 0,
        }));
      const bot = JSON.parse((await key(["create", "--name", "shop bot"])).stdout);
      const sheet = JSON.parse((await key(["create", "--name", "sheet"])).stdout);

      const listed = await key(["list"]);
      assert.equal(listed.code, 0, listed.stderr);
      const keys = JSON.parse(listed.stdout) as { id: string; name: string; revokedAt: unknown }[];
      assert.deepEqual(keys.map((k) => [k.id, k.name, k.revokedAt]), [
        [sheet.id, "sheet", null],
        [bot.id, "shop bot", null],
      ]);
      assert.doesNotMatch(listed.stdout, new RegExp(bot.secret), "a secret is shown once only");

      const one = await key(["revoke", "--key", bot.id]);
      assert.equal(one.code, 0, one.stderr);
      assert.deepEqual(JSON.parse(one.stdout).map((k: { id: string }) => k.id), [bot.id]);
      const again = await key(["revoke", "--key", bot.id]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^Error: API key not found$/m);
      const bad = await key(["revoke", "--key", "not-an-id"]);
      assert.match(bad.stderr, /^Error: API key not found$/m);
      const all = await key(["revoke", "--all"]);
      assert.deepEqual(JSON.parse(all.stdout).map((k: { id: string }) => k.id), [sheet.id]);

      const audit = await withHandle(
        tdb,
        (db) =>
          db.selectFrom("audit_log").select(["action", "actor_type", "actor_name"])
            .where("action", "like", "api_key.%").orderBy("id").execute(),
      );
      assert.deepEqual(audit.map((a) => [a.action, a.actor_type, a.actor_name]), [
        ["api_key.create", "cli", "ops-kim"],
        ["api_key.create", "cli", "ops-kim"],
        ["api_key.revoke", "cli", "ops-kim"],
        ["api_key.revoke", "cli", "ops-kim"],
      ]);
    } finally {
      await tdb.drop();
    }
  },
});
