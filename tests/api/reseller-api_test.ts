// The reseller API: keys issued, listed and revoked (by the reseller and by an admin,
// each audited), /api/v1 by key only, the ownership matrix over every v1 route, one order for 50
// parallel requests under one Idempotency-Key, 402 on a short balance, hostile input answered 400
// in the error shape, the per-key rate limit, and an OpenAPI document that lists every v1 route.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { API_KEY_REQUESTS } from "../../src/domain/auth/rate-limit.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const V1_DIR = new URL("../../src/pages/api/v1/", import.meta.url).pathname;
const B_PASSWORD = "b-reseller-pass";
const C_PASSWORD = "c-reseller-pass";
const SLOW_SUPPLIER_ENV = { SUPPLIER_TIMEOUT_MS: "10000" };

/** A non-browser client of the API: a bearer key, no cookies, no Origin. */
function keyClient(base: string, secret: string): TestClient {
  return new TestClient(base, { authorization: `Bearer ${secret}` });
}

async function signIn(base: string, email: string, password: string): Promise<TestClient> {
  const c = new TestClient(base);
  const r = await c.post("/api/login_reseller", { username: email, password });
  assert.equal(r.status, 200, r.text);
  return c;
}

/** Every secret the test was given, to look for in the database afterwards. */
const issuedSecrets: string[] = [];

async function newKey(session: TestClient, name: string): Promise<{ id: string; secret: string }> {
  const r = await session.post("/api/reseller/api_keys", { name });
  assert.equal(r.status, 201, r.text);
  issuedSecrets.push(r.json.secret);
  return { id: r.json.key.id, secret: r.json.secret };
}

function assertError(
  r: { status: number; json: { error?: { code?: unknown; message?: unknown } }; text: string },
  status: number,
  code: string,
) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.json?.error?.code, code, r.text);
  assert.equal(typeof r.json.error.message, "string");
  assert.ok((r.json.error.message as string).length > 0);
}

/** `METHOD /api/v1/...` for each exported handler under src/pages/api/v1, as OpenAPI names it. */
function scanV1Routes(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const full = join(dir, entry.name);
      if (entry.isDirectory) walk(full);
      else if (entry.name.endsWith(".ts")) {
        const file = relative(V1_DIR, full);
        if (file === "[...path].ts" || file === "openapi.json.ts") continue;
        const source = Deno.readTextFileSync(full);
        const path = "/api/v1/" + file.replace(/\.ts$/, "").replace(/\[(\w+)\]/g, "{$1}");
        for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)) {
          found.push(`${m[1].toLowerCase()} ${path}`);
        }
      }
    }
  };
  walk(V1_DIR);
  return found.sort();
}

Deno.test({
  name: "[reseller api] keys, ownership, idempotency, errors, limits and the OpenAPI document",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      for (
        const [name, email, password, balanceCents] of [
          ["Bee Reseller", "bee@test.example", B_PASSWORD, 100_000],
          ["Cee Reseller", "cee@test.example", C_PASSWORD, 1],
        ] as const
      ) {
        await createTestReseller(db, {
          name,
          email,
          password,
          balanceCents,
        });
      }
    });
    const servers: TestServer[] = [];
    try {
      await exercise();
      await t.step("only hashes are stored, and no secret reaches the audit log", async () => {
        await withHandle(tdb, async (db) => {
          const keys = await db.selectFrom("api_keys").selectAll().execute();
          const audit = JSON.stringify(await db.selectFrom("audit_log").selectAll().execute());
          assert.ok(issuedSecrets.length >= 2);
          for (const secret of issuedSecrets) {
            const hash = createHash("sha256").update(secret).digest("hex");
            assert.equal(keys.filter((k) => k.secret_hash === hash).length, 1);
            assert.ok(!JSON.stringify(keys).includes(secret.slice(12)));
            assert.ok(!audit.includes(secret.slice(12)));
          }
        });
      });
    } finally {
      await tdb.drop();
    }

    async function exercise() {
      // An API order asks the supplier about the account: 50 parallel orders on one
      // process make the simulator's answer wait its turn, longer than the tests' 1 s default.
      servers.push(await startTestServer(tdb, SLOW_SUPPLIER_ENV));
      const server = servers[0];
      try {
        const aSession = await signInDemoReseller(server.url);
        const bSession = await signIn(server.url, "bee@test.example", B_PASSWORD);
        const aId = (await aSession.get("/api/current_user")).json.user._id as string;
        const bId = (await bSession.get("/api/current_user")).json.user._id as string;
        const aKey = await newKey(aSession, "Shop bot");
        const bKey = await newKey(bSession, "Bee shop");
        const a = keyClient(server.url, aKey.secret);
        const b = keyClient(server.url, bKey.secret);
        let pubgId = "";
        let item = { key: "", price: 0 };
        let aOrderId = "";
        let bOrderId = "";

        await t.step("a key's secret is shown once; only its prefix is listed", async () => {
          assert.match(aKey.secret, /^tk_live_[A-Za-z0-9_-]{43}$/);
          const list = await aSession.get("/api/reseller/api_keys");
          assert.equal(list.status, 200);
          assert.equal(list.json.keys.length, 1);
          assert.equal(list.json.keys[0].name, "Shop bot");
          assert.equal(list.json.keys[0].prefix, aKey.secret.slice(0, 12));
          assert.equal(list.json.keys[0].lastUsedAt, null);
          assert.ok(!list.text.includes(aKey.secret.slice(12)), "the secret is never listed");
          assert.equal((await aSession.post("/api/reseller/api_keys", { name: "  " })).status, 400);
        });

        await t.step("a session cookie does not open v1; a key opens nothing else", async () => {
          assertError(await aSession.get("/api/v1/balance"), 401, "unauthenticated");
          const orderBySession = await aSession.post("/api/v1/orders", {}, {
            "idempotency-key": "x",
          });
          assertError(orderBySession, 401, "unauthenticated");
          for (const path of ["/api/current_user", "/api/reseller/games", "/api/resellers"]) {
            assert.equal((await a.get(path)).status, 401, path);
          }
          assert.equal((await a.post("/api/reseller/api_keys", { name: "by key" })).status, 401);
          assertError(
            await keyClient(server.url, "tk_live_nope").get("/api/v1/balance"),
            401,
            "unauthenticated",
          );
          assertError(
            await new TestClient(server.url).get("/api/v1/games"),
            401,
            "unauthenticated",
          );
        });

        await t.step("games come with this reseller's prices; last use is recorded", async () => {
          const games = await a.get("/api/v1/games");
          assert.equal(games.status, 200, games.text);
          const pubg = games.json.games.find((g: { name: string }) => g.name === "PUBG Mobile");
          assert.ok(pubg, games.text.slice(0, 300));
          pubgId = pubg.id;
          item = pubg.items[0];
          const portal = await aSession.get(`/api/resellers/game/${pubgId}`);
          assert.deepEqual(pubg.items, portal.json.gameItems, "the portal's own prices");
          const list = await aSession.get("/api/reseller/api_keys");
          assert.ok(list.json.keys[0].lastUsedAt);
        });

        await t.step("verify answers as the portal's verify", async () => {
          const ok = await a.post("/api/v1/verify", { gameId: pubgId, userid: "5551234" });
          assert.equal(ok.status, 200, ok.text);
          assert.equal(ok.json.result.valid, "valid");
          const bad = await a.post("/api/v1/verify", { gameId: pubgId, userid: "invalid-1" });
          assert.equal(bad.json.result.valid, "invalid");
        });

        await t.step(
          "50 parallel orders under one Idempotency-Key make one order and one debit",
          async () => {
            const before = (await a.get("/api/v1/balance")).json.balance as number;
            const body = { gameId: pubgId, item: item.key, userid: "5551234", userName: "Player" };
            const answers = await Promise.all(
              Array.from(
                { length: 50 },
                () => a.post("/api/v1/orders", body, { "idempotency-key": "order-one" }),
              ),
            );
            for (const r of answers) {
              assert.equal(r.status, 201, r.text);
              assert.equal(
                r.text,
                answers[0].text,
                "every repeat is the first answer, byte for byte",
              );
            }
            const ids = new Set(answers.map((r) => r.json.order.id));
            assert.equal(ids.size, 1);
            aOrderId = [...ids][0];
            const after = (await a.get("/api/v1/balance")).json.balance as number;
            assert.equal(Math.round((before - after) * 100), Math.round(item.price * 100));
            const list = await a.get("/api/v1/orders");
            assert.deepEqual(list.json.orders.map((o: { id: string }) => o.id), [aOrderId]);
            const history = await a.get("/api/v1/balance/history");
            assert.equal(
              history.json.entries.filter((e: { type: string }) => e.type === "order_placed")
                .length,
              1,
            );
            const changed = await a.post("/api/v1/orders", { ...body, userid: "5559999" }, {
              "idempotency-key": "order-one",
            });
            assertError(changed, 409, "conflict");
          },
        );

        await t.step("an order needs an Idempotency-Key; a short balance is a 402", async () => {
          const body = { gameId: pubgId, item: item.key, userid: "5551234" };
          assertError(await a.post("/api/v1/orders", body), 400, "invalid_request");
          const cSession = await signIn(server.url, "cee@test.example", C_PASSWORD);
          const c = keyClient(server.url, (await newKey(cSession, "poor")).secret);
          const short = await c.post("/api/v1/orders", body, { "idempotency-key": "c-1" });
          assertError(short, 402, "insufficient_balance");
          assert.equal((await c.get("/api/v1/balance")).json.balance, 0.01);
          assert.deepEqual((await c.get("/api/v1/orders")).json.orders, []);
        });

        await t.step("the ownership matrix: B's key never sees or touches A's data", async () => {
          // The same Idempotency-Key under B is B's own order, never A's answer.
          const bOrder = await b.post(
            "/api/v1/orders",
            { gameId: pubgId, item: item.key, userid: "5551234" },
            { "idempotency-key": "order-one" },
          );
          assert.equal(bOrder.status, 201, bOrder.text);
          bOrderId = bOrder.json.order.id;
          assert.notEqual(bOrderId, aOrderId);
          assert.equal(bOrder.json.order.reseller.id, bId);
          assertError(await b.get(`/api/v1/orders/${aOrderId}`), 404, "not_found");
          assertError(await a.get(`/api/v1/orders/${bOrderId}`), 404, "not_found");
          assert.equal((await a.get(`/api/v1/orders/${aOrderId}`)).json.order.reseller.id, aId);
          const bList = await b.get("/api/v1/orders");
          assert.deepEqual(bList.json.orders.map((o: { id: string }) => o.id), [bOrderId]);
          // A cursor naming A's order gives B nothing of A's.
          const cursor = btoa(JSON.stringify([aOrderId])).replaceAll("=", "");
          assert.deepEqual((await b.get(`/api/v1/orders?cursor=${cursor}`)).json.orders, []);
          const bHistory = await b.get("/api/v1/balance/history");
          assert.ok(!bHistory.text.includes(aOrderId));
          assert.equal(
            Math.round((await b.get("/api/v1/balance")).json.balance * 100),
            100_000 - Math.round(item.price * 100),
          );
          // B cannot revoke A's key, through its session or with its own key.
          assert.equal(
            (await bSession.request("DELETE", `/api/reseller/api_keys/${aKey.id}`)).status,
            404,
          );
          assert.equal(
            (await b.request("DELETE", `/api/reseller/api_keys/${aKey.id}`)).status,
            401,
          );
          assert.equal((await a.get("/api/v1/balance")).status, 200);
        });

        await t.step("a key sets its own webhook and never reads or rolls another's", async () => {
          const set = await a.request("PUT", "/api/v1/webhook", {
            url: "http://127.0.0.1:9/hooks/a",
          });
          assert.equal(set.status, 200, set.text);
          assert.equal(set.json.url, "http://127.0.0.1:9/hooks/a");
          assert.match(set.json.secret, /^whsec_/);
          assert.equal((await a.get("/api/v1/webhook")).json.url, "http://127.0.0.1:9/hooks/a");
          assert.equal((await a.get("/api/v1/webhook")).json.secret, undefined);
          assert.equal((await b.get("/api/v1/webhook")).json.url, null);
          assertError(await b.post("/api/v1/webhook/roll_secret", {}), 400, "invalid_request");
          assertError(
            await a.request("PUT", "/api/v1/webhook", { url: "ftp://example.test/x" }),
            400,
            "invalid_request",
          );
          const rolled = await a.post("/api/v1/webhook/roll_secret", {});
          assert.equal(rolled.status, 200, rolled.text);
          assert.notEqual(rolled.json.secret, set.json.secret);
          assertError(
            await aSession.request("PUT", "/api/v1/webhook", { url: "http://127.0.0.1:9/x" }),
            401,
            "unauthenticated",
          );
        });

        await t.step("orders page by cursor and filter by status and day", async () => {
          const second = await a.post(
            "/api/v1/orders",
            { gameId: pubgId, item: item.key, userid: "5551234" },
            { "idempotency-key": "order-two" },
          );
          assert.equal(second.status, 201, second.text);
          const first = await a.get("/api/v1/orders?limit=1");
          assert.deepEqual(first.json.orders.map((o: { id: string }) => o.id), [
            second.json.order.id,
          ]);
          assert.ok(first.json.nextCursor);
          const next = await a.get(`/api/v1/orders?limit=1&cursor=${first.json.nextCursor}`);
          assert.deepEqual(next.json.orders.map((o: { id: string }) => o.id), [aOrderId]);
          assert.equal(next.json.nextCursor, null);
          const today = new Date().toISOString().slice(0, 10);
          assert.equal(
            (await a.get(`/api/v1/orders?from=${today}&to=${today}`)).json.orders.length,
            2,
          );
          assert.deepEqual((await a.get("/api/v1/orders?to=2000-01-01")).json.orders, []);
          const statuses = new Set(
            (await a.get("/api/v1/orders")).json.orders.map((o: { status: string }) => o.status),
          );
          for (const status of statuses) {
            const only = (await a.get(`/api/v1/orders?status=${status}`)).json.orders;
            assert.ok(
              only.length > 0 && only.every((o: { status: string }) => o.status === status),
            );
          }
          assert.deepEqual((await a.get("/api/v1/orders?status=error")).json.orders, []);
          const h1 = await a.get("/api/v1/balance/history?limit=1");
          assert.equal(h1.json.entries.length, 1);
          const h2 = await a.get(`/api/v1/balance/history?limit=1&cursor=${h1.json.nextCursor}`);
          assert.ok(h2.json.entries[0].id < h1.json.entries[0].id);
        });

        await t.step(
          "Mobile Legends and MooGold go through the portal's verify and package choice",
          async () => {
            const games = (await b.get("/api/v1/games")).json.games as {
              id: string;
              name: string;
              packages: { name: string; items: { key: string }[] }[];
            }[];
            const ml = games.find((g) => g.name === "Mobile Legends")!;
            const verified = await b.post("/api/v1/verify", {
              gameId: ml.id,
              userid: "22222222",
              serverid: "2222",
            });
            assert.equal(verified.status, 200, verified.text);
            assert.deepEqual(verified.json.result.choice, { kind: "ok", package: "mlbb_special" });
            const special = ml.packages.find((p) => p.name === "mlbb_special")!;
            const body = {
              gameId: ml.id,
              item: special.items[0].key,
              userid: "22222222",
              serverid: "2222",
            };
            const wrong = await b.post("/api/v1/orders", { ...body, package: "mlbb" }, {
              "idempotency-key": "ml-wrong",
            });
            assertError(wrong, 409, "conflict");
            const ordered = await b.post("/api/v1/orders", { ...body, package: "mlbb_special" }, {
              "idempotency-key": "ml-1",
            });
            assert.equal(ordered.status, 201, ordered.text);
            assert.equal(ordered.json.order.package, "mlbb_special");
            const invalid = await b.post("/api/v1/orders", { ...body, userid: "55555555" }, {
              "idempotency-key": "ml-2",
            });
            assertError(invalid, 400, "invalid_request");
            const freeFire = games.find((g) => g.name === "Free Fire")!;
            const mg = await b.post("/api/v1/verify", { gameId: freeFire.id, userid: "123456789" });
            assert.equal(mg.status, 200, mg.text);
            assert.equal(mg.json.result.status, "true");
          },
        );

        await t.step("hostile input is a 400 in the error shape, never a 5xx", async () => {
          const key = { "idempotency-key": "hostile" };
          const bodies: unknown[] = [
            "{not json",
            "[]",
            "null",
            { gameId: 5, item: item.key, userid: "1" },
            { gameId: "not-a-uuid", item: item.key, userid: "1" },
            { gameId: pubgId, item: { $gt: "" }, userid: "1" },
            { gameId: pubgId, item: item.key, userid: "x".repeat(100_000) },
            { gameId: pubgId, item: item.key, userid: "1", expectedPrice: -5 },
            { gameId: pubgId, item: item.key, userid: "1", expectedPrice: "NaN" },
            { gameId: pubgId, item: item.key, userid: "1", expectedPrice: 1e309 },
            { gameId: pubgId, item: item.key, userid: "1", package: "free" },
          ];
          for (const body of bodies) {
            const r = await a.post("/api/v1/orders", body, key);
            assertError(r, 400, "invalid_request");
          }
          assertError(await a.post("/api/v1/verify", "{"), 400, "invalid_request");
          assertError(await a.post("/api/v1/verify", { gameId: pubgId }), 400, "invalid_request");
          assertError(
            await a.post("/api/v1/orders", { gameId: pubgId }, { "idempotency-key": "k\u00e9y" }),
            400,
            "invalid_request",
          );
          for (
            const q of [
              "limit=-1",
              "limit=NaN",
              "limit=1e9",
              "status=bogus",
              "from=yesterday",
              "to=2024-13-45",
              "cursor=%%%",
              `cursor=${"A".repeat(500)}`,
              "cursor=bnVsbA",
            ]
          ) {
            assertError(await a.get(`/api/v1/orders?${q}`), 400, "invalid_request");
          }
          assertError(
            await a.get("/api/v1/balance/history?cursor=WyJ4Il0"),
            400,
            "invalid_request",
          );
          assertError(await a.get(`/api/v1/orders/${"x".repeat(5000)}`), 404, "not_found");
          assertError(await a.get("/api/v1/nothing-here"), 404, "not_found");
          for (const method of ["PUT", "DELETE", "PATCH"]) {
            assertError(await a.request(method, "/api/v1/orders"), 405, "method_not_allowed");
          }
          const huge = await a.post("/api/v1/orders", "x".repeat(2 * 1024 * 1024), key);
          assertError(huge, 413, "payload_too_large");
          // The balance is untouched by all of it.
          const orders = (await a.get("/api/v1/orders")).json.orders;
          assert.equal(orders.length, 2);
        });

        await t.step(
          "a request from another Origin with a key is served (no cookie, no CSRF)",
          async () => {
            const r = await a.post("/api/v1/verify", { gameId: pubgId, userid: "5551234" }, {
              origin: "https://shop.example",
            });
            assert.equal(r.status, 200, r.text);
          },
        );

        let second: TestServer | undefined;
        if (testBackend() === "postgres") {
          second = await startTestServer(tdb, SLOW_SUPPLIER_ENV);
          servers.push(second);
        }

        await t.step("a revoked key is refused at once, on every instance", async () => {
          const onSecond = second ? keyClient(second.url, aKey.secret) : undefined;
          if (onSecond) assert.equal((await onSecond.get("/api/v1/balance")).status, 200);
          const revoke = await aSession.request("DELETE", `/api/reseller/api_keys/${aKey.id}`);
          assert.equal(revoke.status, 200, revoke.text);
          assert.ok(revoke.json.key.revokedAt);
          assertError(await a.get("/api/v1/balance"), 401, "unauthenticated");
          if (onSecond) assertError(await onSecond.get("/api/v1/balance"), 401, "unauthenticated");
          assert.equal(
            (await aSession.request("DELETE", `/api/reseller/api_keys/${aKey.id}`)).status,
            404,
          );
          const listed = (await aSession.get("/api/reseller/api_keys")).json.keys;
          assert.ok(listed[0].revokedAt);
        });

        await t.step(
          "an admin revokes a reseller's key from its edit page; both are audited",
          async () => {
            const admin = await signInDemoAdmin(server.url);
            const keys = await admin.get(`/api/reseller/${bId}/api_keys`);
            assert.equal(keys.status, 200, keys.text);
            assert.deepEqual(keys.json.keys.map((k: { id: string }) => k.id), [bKey.id]);
            assert.equal(
              (await admin.request("DELETE", `/api/reseller/${aId}/api_keys/${bKey.id}`)).status,
              404,
              "the key must belong to the reseller named in the path",
            );
            assert.equal((await bSession.get(`/api/reseller/${bId}/api_keys`)).status, 403);
            assert.equal(
              (await admin.request("DELETE", `/api/reseller/${bId}/api_keys/${bKey.id}`)).status,
              200,
            );
            assertError(await b.get("/api/v1/orders"), 401, "unauthenticated");
            const audit = (await admin.get("/api/audit_log?action=api_key")).json.entries as {
              action: string;
              actorType: string;
              targetId: string;
              before: unknown;
              after: unknown;
            }[];
            const byAction = (action: string, target: string) =>
              audit.filter((e) => e.action === action && e.targetId === target);
            assert.equal(byAction("api_key.create", aId).length, 1);
            assert.equal(byAction("api_key.revoke", aId)[0].actorType, "reseller");
            assert.equal(byAction("api_key.revoke", bId)[0].actorType, "admin");
            assert.ok(
              !JSON.stringify(audit).includes(aKey.secret.slice(12)),
              "no secret in the audit",
            );
          },
        );

        await t.step(
          "each key has its rate limit, counted down in RateLimit-* headers, then 429 with Retry-After",
          async () => {
            const limited = keyClient(server.url, (await newKey(bSession, "loop")).secret);
            const other = keyClient(server.url, (await newKey(bSession, "other")).secret);
            const { max, windowSeconds } = API_KEY_REQUESTS;
            const first = await limited.get("/api/v1/balance");
            assert.equal(first.headers.get("ratelimit-limit"), String(max));
            assert.equal(first.headers.get("ratelimit-remaining"), String(max - 1));
            assert.equal(first.headers.get("ratelimit-policy"), `${max};w=${windowSeconds}`);
            const reset = Number(first.headers.get("ratelimit-reset"));
            assert.ok(reset >= 1 && reset <= windowSeconds, `reset ${reset}`);
            let last;
            for (let i = 1; i <= max; i++) last = await limited.get("/api/v1/balance");
            assertError(last!, 429, "rate_limited");
            assert.equal(last!.headers.get("ratelimit-remaining"), "0");
            const wait = Number(last!.headers.get("retry-after"));
            assert.ok(wait >= 1 && wait <= windowSeconds, `Retry-After ${wait}`);
            assert.equal(last!.headers.get("ratelimit-reset"), String(wait));
            const fresh = await other.get("/api/v1/balance");
            assert.equal(fresh.status, 200);
            assert.equal(fresh.headers.get("ratelimit-remaining"), String(max - 1));
          },
        );

        await t.step("the OpenAPI document is 3.1 and lists every v1 route", async () => {
          const r = await new TestClient(server.url).get("/api/v1/openapi.json");
          assert.equal(r.status, 200);
          const doc = r.json;
          assert.equal(doc.openapi, "3.1.0");
          assert.ok(doc.info.title && doc.info.version);
          const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
            .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)).sort();
          assert.deepEqual(listed, scanV1Routes());
          for (const [path, ops] of Object.entries(doc.paths)) {
            assert.ok(path.startsWith("/api/v1/"));
            for (const op of Object.values(ops as object)) {
              assert.ok(op.operationId && op.summary && Object.keys(op.responses).length);
              for (const p of op.parameters ?? []) {
                assert.ok(["path", "query", "header"].includes(p.in) && p.name && p.schema);
                if (p.in === "path") {
                  assert.equal(p.required, true);
                  assert.ok(path.includes(`{${p.name}}`));
                }
              }
              const body = op.requestBody?.content["application/json"].schema;
              if (body) assert.equal(body.type, "object");
              for (const res of Object.values(op.responses) as { $ref?: string }[]) {
                if (res.$ref) assert.ok(doc.components.responses[res.$ref.split("/").pop()!]);
              }
            }
          }
          const order = doc.paths["/api/v1/orders"].post;
          assert.deepEqual(order.requestBody.content["application/json"].schema.required, [
            "gameId",
            "item",
            "userid",
          ]);
          assert.ok(order.parameters.some((p: { name: string }) => p.name === "Idempotency-Key"));
          assert.ok(order.responses["402"]);
        });
      } finally {
        for (const s of servers) await s.stop();
      }
    }
  },
});
