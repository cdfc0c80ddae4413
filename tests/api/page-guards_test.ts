// The page guards decide on the path as the router reads it. A trailing slash,
// another case, a doubled slash or a percent-encoded letter must not open /resellers/home or
// /admin/home to a signed-out caller, a password-only (pre-2FA) session or the other role, and no
// such visit answers 500: each ends on the area's sign-in page. A pre-2FA session reaches the
// two-factor screen and its calls, and every other route answers it as it answers a stranger.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): the page guards
// decide on the path and the session, before any query of their own.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { routeUrl, scanApiRoutes } from "../helpers/api-routes.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { DEMO_ADMIN, seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const PASSWORD = "a long test password";

/** Spellings of one page that the server may read as that page. */
const VARIANTS = {
  "/resellers/home": [
    "/resellers/home",
    "/resellers/home/",
    "/resellers/home//",
    "/Resellers/home",
    "/RESELLERS/HOME",
    "/resellers//home",
    "//resellers/home",
    "/resellers/%68ome",
    "/%72esellers/home/",
    "/resellers/%2568ome",
    "/resellers%2Fhome",
  ],
  "/admin/home": [
    "/admin/home",
    "/admin/home/",
    "/admin/home//",
    "/Admin/Home",
    "/ADMIN/HOME/",
    "/admin//home",
    "//admin/home",
    "/admin/%68ome",
    "/%61dmin/home/",
    "/admin/%2568ome",
    "/admin%2Fhome",
  ],
};

interface Landing {
  status: number;
  path: string;
  body: string;
  /** Every answer on the way, `status path`. */
  chain: string[];
}

/** Requests `path` exactly as written (no URL clean-up) and follows redirects with the cookies. */
async function land(client: TestClient, path: string): Promise<Landing> {
  const origin = new URL(client.base).origin;
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const chain: string[] = [];
  let at = origin + path;
  for (let hop = 0; hop < 5; hop++) {
    const r = await fetch(at, { headers: cookie ? { cookie } : {}, redirect: "manual" });
    const body = await r.text();
    chain.push(`${r.status} ${at.slice(origin.length)}`);
    const location = r.headers.get("location");
    if (r.status < 300 || r.status >= 400 || !location) {
      return { status: r.status, path: at.slice(origin.length), body, chain };
    }
    at = new URL(location, at).href;
  }
  throw new Error(`too many redirects: ${chain.join(" → ")}`);
}

Deno.test({
  name:
    "[page guards] every spelling of a guarded page sends strangers, pre-2FA and the other role " +
    "to sign-in, never a 500",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createTestReseller(db, {
        name: "Tess Twofactor",
        email: "tess@test.example",
        password: PASSWORD,
        balanceCents: 4_321_00,
        twoFAEnabled: true,
      });
      await createAdmin(db, {
        name: "Gus Guard",
        email: "gus@test.example",
        password: PASSWORD,
        rank: "Admin",
        createdBy: "test",
      });
    });
    const server = await startTestServer(tdb);
    try {
      const login = async (kind: "admin" | "reseller", username: string, password: string) => {
        const client = new TestClient(server.url);
        const r = await client.post(`/api/login_${kind}`, { username, password });
        return { client, status: r.status, json: r.json };
      };
      // Password accepted, second factor not yet: enrolling (202) and asked for a code (200).
      const enrollingAdmin = await login("admin", DEMO_ADMIN.email, DEMO_ADMIN.password);
      assert.equal(enrollingAdmin.status, 202);
      const enrollingReseller = await login("reseller", "tess@test.example", PASSWORD);
      assert.equal(enrollingReseller.status, 202);
      const tess = enrollingReseller.json.user;
      const gus = await signInAdmin(server.url, "gus@test.example", PASSWORD);
      const codeDue = await login("admin", "gus@test.example", PASSWORD);
      assert.equal(codeDue.json.twoFARequired, true, JSON.stringify(codeDue.json));
      const reseller = await signInDemoReseller(server.url);
      const demoReseller = (await reseller.get("/api/current_user")).json.user;

      const strangers = {
        "signed out": new TestClient(server.url),
        "admin enrolling two-factor": enrollingAdmin.client,
        "admin asked for a code": codeDue.client,
        "reseller enrolling two-factor": enrollingReseller.client,
      };
      // What each page shows only to its owner: the reseller's id, name and balance in the
      // island's props; the console island.
      const secretsOf = {
        "/resellers/home": [tess._id, tess.name, demoReseller._id, demoReseller.name, "4321"],
        "/admin/home": ["AdminConsole", "adminName"],
      };
      const callers = {
        "/resellers/home": { ...strangers, "signed-in admin": gus.client },
        "/admin/home": { ...strangers, "signed-in reseller": reseller },
      };
      const signInOf = { "/resellers/home": "/resellers", "/admin/home": "/admin" };

      for (const page of ["/resellers/home", "/admin/home"] as const) {
        await t.step(
          `${page}: every spelling, every caller without the right session`,
          async () => {
            const wrong: string[] = [];
            for (const [who, client] of Object.entries(callers[page])) {
              for (const path of VARIANTS[page]) {
                const landed = await land(client, path);
                const leaked = secretsOf[page].filter((s) => landed.body.includes(s));
                const ok = landed.status === 200 && landed.path === signInOf[page] &&
                  leaked.length === 0 && landed.chain.every((c) => !c.startsWith("5"));
                if (!ok) {
                  wrong.push(
                    `${who} ${path}: ${landed.chain.join(" → ")}` +
                      (leaked.length ? ` showing ${leaked.join(", ")}` : ""),
                  );
                }
              }
            }
            assert.deepEqual(wrong, [], `expected every visit to end on ${signInOf[page]}`);
          },
        );
      }

      await t.step("the owner still reaches the page through a trailing slash", async () => {
        const home = await land(reseller, "/resellers/home/");
        assert.deepEqual(home.chain, ["301 /resellers/home/", "200 /resellers/home"]);
        assert.ok(home.body.includes(demoReseller._id));
        const console = await land(gus.client, "/admin/home/");
        assert.deepEqual(console.chain, ["301 /admin/home/", "200 /admin/home"]);
        assert.ok(console.body.includes("AdminConsole"));
      });

      await t.step("a pre-2FA session gets the two-factor screen", async () => {
        for (const client of [enrollingAdmin.client, codeDue.client, enrollingReseller.client]) {
          const screen = await land(client, "/2fa");
          assert.deepEqual(screen.chain, ["200 /2fa"]);
        }
      });

      await t.step(
        "every other route answers a pre-2FA session as it answers a stranger",
        async () => {
          // The two-factor calls: the code check and abandoning the sign-in.
          const ITS_CALLS = new Set(["POST verify-totp.ts", "POST logout.ts"]);
          const stranger = new TestClient(server.url);
          const differ: string[] = [];
          let compared = 0;
          for (const { method, file } of scanApiRoutes()) {
            if (ITS_CALLS.has(`${method} ${file}`)) continue;
            const path = routeUrl(file, () => tess._id);
            const verb = method === "ALL" ? "GET" : method;
            const body = verb === "GET" ? undefined : {};
            const expected = await stranger.request(verb, path, body);
            for (
              const client of [enrollingAdmin.client, codeDue.client, enrollingReseller.client]
            ) {
              const r = await client.request(verb, path, body);
              compared++;
              if (r.status !== expected.status) {
                differ.push(`${verb} ${path}: ${r.status}, a stranger gets ${expected.status}`);
              }
            }
          }
          assert.ok(compared > 200, `only ${compared} calls compared`);
          assert.deepEqual(differ, []);
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
