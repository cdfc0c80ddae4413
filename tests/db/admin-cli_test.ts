import assert from "node:assert/strict";
import { createTestDatabase, testBackend } from "../helpers/backends.ts";

const backend = testBackend();

Deno.test({
  name: `[cli:${backend}] admin list|delete and audit: the console's rules and audit rows`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    const cli = async (args: string[], stdin = "") => {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "cli/main.ts", ...args],
        env: { ...tdb.env, USER: "ops-anna" },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(stdin));
      await writer.close();
      const out = await child.output();
      const text = (b: Uint8Array) => new TextDecoder().decode(b);
      return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
    };
    try {
      await t.step("admin create, then list with a search", async () => {
        for (const [name, rank] of [["Root", "superadmin"], ["Ann Admin", "Admin"]]) {
          const email = `${name.split(" ")[0].toLowerCase()}@ops.test`;
          const r = await cli(
            ["admin", "create", "--name", name, "--email", email, "--rank", rank],
            "a long cli password\n",
          );
          assert.equal(r.code, 0, r.stderr);
        }
        const r = await cli(["admin", "list", "--search", "ADMIN", "--json"]);
        assert.equal(r.code, 0, r.stderr);
        const rows = JSON.parse(r.stdout) as { name: string; rank: string }[];
        assert.deepEqual(rows.map((a) => [a.name, a.rank]), [
          ["Root", "superadmin"],
          ["Ann Admin", "Admin"],
        ]);
      });

      await t.step("admin delete: an Admin goes, the last superadmin stays", async () => {
        assert.equal((await cli(["admin", "delete", "--email", "ann@ops.test"])).code, 0);
        const last = await cli(["admin", "delete", "--email", "root@ops.test"]);
        assert.equal(last.code, 1);
        assert.match(last.stderr, /Error: The last superadmin cannot be deleted/);
        const missing = await cli(["admin", "delete", "--email", "ann@ops.test"]);
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /No admin with email ann@ops\.test/);
      });

      await t.step("audit --json --actor names the operator; no password in it", async () => {
        const r = await cli(["audit", "--json", "--actor", "ops-anna"]);
        assert.equal(r.code, 0, r.stderr);
        const entries = JSON.parse(r.stdout) as { action: string; actorType: string }[];
        assert.deepEqual(entries.map((e) => `${e.actorType} ${e.action}`), [
          "cli admin.delete",
          "cli admin.create",
          "cli admin.create",
        ]);
        assert.ok(!r.stdout.includes("a long cli password"));
        const future = await cli(["audit", "--json", "--since", "2999-01-01"]);
        assert.deepEqual(JSON.parse(future.stdout), []);
        const text = await cli(["audit", "--action", "admin.delete"]);
        assert.match(text.stdout, /cli:ops-anna admin\.delete admin:/);
      });
    } finally {
      await tdb.drop();
    }
  },
});
