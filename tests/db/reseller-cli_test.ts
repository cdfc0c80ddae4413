import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { findLiveResellerByName } from "../../src/domain/resellers/accounts.ts";

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
