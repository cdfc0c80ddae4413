// Hostile input: every /api route found in src/pages/api, /api/v1 by key
// included, gets malformed JSON, wrong types, missing and extra fields, huge strings and bodies,
// negative, zero, NaN, Infinity and enormous amounts, unicode and control characters (NUL bytes)
// and other users' ids, in its body, its query and its path. No answer is a 5xx or a stall, every
// refusal is JSON that says what is wrong, another reseller's id is refused, and no money moves.
// LONG=1 (`npm run test:long`) sends many more seeded random bodies per route.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): what it sends
// is refused by the routes' validation before any query; the database's own refusals (a negative
// balance, a second debit) run on both backends in tests/db.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { pubgOrder } from "../helpers/orders.ts";
import { type ApiRoute, routeUrl, scanApiRoutes } from "../helpers/api-routes.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const LONG = Deno.env.get("LONG") === "1";
/** Seeded random bodies per route on top of the fixed table. */
const RANDOM_BODIES = LONG ? 150 : 6;
const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 9);
/** A request not answered in this time is a stall, reported as such. */
const REQUEST_TIMEOUT_MS = 20_000;
const PARALLEL = 4;
const B_PASSWORD = "bee-reseller-pass";

/** Every field name the server's input schemas know, so that bodies reach past "required". */
function knownFieldNames(): string[] {
  const dir = new URL("../../src/server/", import.meta.url).pathname;
  const names = new Set<string>();
  for (const entry of Deno.readDirSync(dir)) {
    const source = Deno.readTextFileSync(dir + entry.name);
    for (const m of source.matchAll(/^\s+"?([a-zA-Z_]\w*)"?\??:\s/gm)) names.add(m[1]);
  }
  return [...names].sort();
}

const STRINGS = [
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "\u0001\u0007\b\u001b[31m\u007f",
  "\ud800",
  "\u202eevil\u200b\ufeff",
  "𝕏🙂 éa\u0301 中文",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../../etc/passwd",
  "%00",
  "${7*7}{{7*7}}",
  // Every known field at once with this is 850 kB: under the limit, so it is parsed.
  "x".repeat(10_000),
];
/** Amounts as JSON text: JSON has no NaN or Infinity, so they come as text or as overflowing numbers. */
const NUMBERS = [
  "-1",
  "0",
  "-0",
  "0.001",
  "1.005",
  "1e-7",
  "1e21",
  "1e309",
  "-1e309",
  "9007199254740993",
  "123456789012345678901234567890",
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '"1e400"',
  '"0x10"',
  '" 5 "',
];
const SHAPES = [
  "null",
  "true",
  "[]",
  "{}",
  '[{"$gt":""}]',
  '{"$ne":null}',
  '{"__proto__":{"x":1}}',
];

/** A JSON object text with each of `fields` set to the JSON text `value`. */
function objectText(fields: string[], value: string): string {
  return `{${fields.map((f) => `${JSON.stringify(f)}:${value}`).join(",")}}`;
}

/** mulberry32: the same seed gives the same bodies. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Body {
  label: string;
  text?: string | Uint8Array<ArrayBuffer>;
  stream?: () => ReadableStream<Uint8Array>;
  contentType?: string;
}

/** The fixed table of bad bodies, then `count` seeded random objects of hostile values. */
function hostileBodies(fields: string[], otherIds: string[], rng: () => number, count: number) {
  const values = [
    ...STRINGS.map((s) => JSON.stringify(s)),
    ...NUMBERS,
    ...SHAPES,
    ...otherIds.map((id) => JSON.stringify(id)),
  ];
  const bodies: Body[] = [
    { label: "empty body", text: "" },
    { label: "malformed JSON", text: "{not json" },
    { label: "truncated JSON", text: '{"amount": 1' },
    { label: "JSON with a raw NUL", text: '{"name":"a\u0000b"}' },
    { label: "bare NaN", text: '{"amount": NaN}' },
    { label: "deep nesting", text: "[".repeat(200_000) + "]".repeat(200_000) },
    {
      label: "form encoded",
      text: "amount=-1&id=1",
      contentType: "application/x-www-form-urlencoded",
    },
    { label: "not UTF-8", text: new Uint8Array([0xff, 0xfe, 0x7b, 0xc0, 0x7d]) },
    ...SHAPES.map((s) => ({ label: `top-level ${s}`, text: s })),
    { label: "missing fields", text: "{}" },
    { label: "extra fields", text: '{"isAdmin":true,"role":"admin","balance":1e9,"_id":"x"}' },
    ...STRINGS.map((s, i) => ({
      label: `every field string #${i}`,
      text: objectText(fields, JSON.stringify(s)),
    })),
    ...NUMBERS.map((n) => ({ label: `every field ${n}`, text: objectText(fields, n) })),
    ...SHAPES.map((s) => ({ label: `every field ${s}`, text: objectText(fields, s) })),
    ...otherIds.map((id) => ({
      label: "every field another user's id",
      text: objectText(fields, JSON.stringify(id)),
    })),
    {
      label: "another reseller in the body",
      text: JSON.stringify({
        reseller: { id: otherIds[0], name: "Bee Reseller" },
        resellerId: otherIds[0],
        price: 0,
        amount: 0,
        cost: 0,
      }),
    },
    {
      label: "900 kB string (under the limit)",
      text: JSON.stringify({ name: "x".repeat(900_000) }),
    },
    { label: "2 MB body", text: JSON.stringify({ name: "x".repeat(2_000_000) }) },
    { label: "2 MB chunked body", stream: () => chunks(2_000_000) },
  ];
  for (let i = 0; i < count; i++) {
    const picked = fields.filter(() => rng() < 0.15);
    const text = `{${
      picked.map((f) => `${JSON.stringify(f)}:${values[Math.floor(rng() * values.length)]}`).join(
        ",",
      )
    }}`;
    bodies.push({ label: `random #${i} (seed ${SEED})`, text });
  }
  return bodies;
}

function chunks(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

const QUERIES = [
  "?limit=-1&page=-1&from=yesterday&to=2024-13-45&status=bogus&sort=;drop",
  "?limit=NaN&page=Infinity&cursor=%%%",
  "?limit=1e400&page=99999999999999999999&search=%00",
  `?search=${"x".repeat(5000)}&q=${"y".repeat(5000)}`,
  "?id=a%00b&name=%E2%80%AE&email=%C0%AF",
  "?search=%27%20OR%201%3D1%20--&dir=sideways&since=-1",
];

interface Caller {
  name: "admin" | "reseller" | "key" | "anonymous";
  headers(): Record<string, string> | Promise<Record<string, string>>;
}

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

async function send(
  base: string,
  caller: Caller,
  method: string,
  path: string,
  body?: Body,
): Promise<Answer> {
  const headers: Record<string, string> = { ...await caller.headers() };
  if (body) headers["content-type"] = body.contentType ?? "application/json";
  if (method !== "GET" && caller.name === "key") headers["idempotency-key"] = crypto.randomUUID();
  const payload = body?.stream ? body.stream() : body?.text;
  const response = await fetch(new URL(path, base), {
    method,
    headers,
    body: method === "GET" ? undefined : payload,
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return {
    status: response.status,
    text: await response.text(),
    contentType: response.headers.get("content-type") ?? "",
  };
}

/** What is wrong with an answer, or undefined when it is acceptable. */
function fault(answer: Answer, isV1: boolean, othersIdInPath: boolean): string | undefined {
  if (answer.status >= 500) return `${answer.status}`;
  if (othersIdInPath && answer.status < 400) {
    return `another reseller's id answered ${answer.status}`;
  }
  if (answer.status < 400) return undefined;
  if (!answer.contentType.startsWith("application/json")) return `${answer.status} not JSON`;
  let json;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `${answer.status} with a body that does not parse`;
  }
  const message = isV1 ? json?.error?.message : json?.error;
  if (isV1 && typeof json?.error?.code !== "string") {
    return `${answer.status} without an error code`;
  }
  if (typeof message !== "string" || message.trim() === "") {
    return `${answer.status} without an error message`;
  }
  if (message.startsWith("Something went wrong")) return `${answer.status} with no reason given`;
  return undefined;
}

Deno.test({
  name: "[hostile input] every /api route refuses bad input with a JSON 4xx, and no money moves",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createTestReseller(db, {
        name: "Bee Reseller",
        email: "bee@test.example",
        password: B_PASSWORD,
        balanceCents: 100_000,
      });
      // The holder of the v1 keys: the fuzz of the key routes fills the other resellers' slots.
      await createTestReseller(db, {
        name: "Kay Keyholder",
        email: "kay@test.example",
        password: B_PASSWORD,
        balanceCents: 100_000,
      });
    });
    const server = await startTestServer(tdb);
    try {
      const admin = await signInDemoAdmin(server.url);
      const a = await signInDemoReseller(server.url);
      const b = new TestClient(server.url);
      const bLogin = await b.post("/api/login_reseller", {
        username: "bee@test.example",
        password: B_PASSWORD,
      });
      assert.equal(bLogin.status, 200, bLogin.text);
      const aId = (await a.get("/api/current_user")).json.user._id as string;
      const bId = bLogin.json.user._id as string;
      const adminId = (await admin.get("/api/current_user")).json.user._id as string;
      const { body: order } = await pubgOrder(b);
      const placed = await b.post("/api/reseller/place_order", {
        reseller: { id: bId, name: "Bee Reseller" },
        ...order,
      });
      assert.equal(placed.status, 201, placed.text);
      const bOrderId = placed.json.order.id as string;
      // The order settles first, so that only the fuzz could change the money afterwards.
      for (let i = 0; i < 50; i++) {
        const r = await b.post(`/api/reseller/order/${bOrderId}/refresh_status`);
        if (r.json?.order?.status === "successful") break;
        await new Promise((ok) => setTimeout(ok, 200));
      }
      const bKey = (await b.post("/api/reseller/api_keys", { name: "bee key" })).json.key
        .id as string;

      // v1 keys are rate limited per key: a fresh key for every 250 requests.
      const kay = new TestClient(server.url);
      const kayLogin = await kay.post("/api/login_reseller", {
        username: "kay@test.example",
        password: B_PASSWORD,
      });
      assert.equal(kayLogin.status, 200, kayLogin.text);
      let key: Promise<string> | undefined;
      let keyUses = 0;
      const keyHeaders = async () => {
        if (!key || ++keyUses > 250) {
          keyUses = 1;
          key = kay.post("/api/reseller/api_keys", { name: `fuzz ${crypto.randomUUID()}` })
            .then((r) => {
              assert.equal(r.status, 201, r.text);
              return r.json.secret as string;
            });
        }
        return { authorization: `Bearer ${await key}` };
      };
      const sessionHeaders = (c: TestClient) => () => ({
        cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      });
      const callers: Record<Caller["name"], Caller> = {
        admin: { name: "admin", headers: sessionHeaders(admin) },
        reseller: { name: "reseller", headers: sessionHeaders(a) },
        key: { name: "key", headers: keyHeaders },
        anonymous: { name: "anonymous", headers: () => ({}) },
      };

      /** Money as an admin sees it: every balance and history, and every order. */
      const money = async () => {
        const resellers = (await admin.get("/api/resellers")).json;
        const histories = await Promise.all(
          [aId, bId].map((id) =>
            admin.get(`/api/reseller/${id}/balance_history`).then((r) => r.text)
          ),
        );
        const orders = await admin.get("/api/orders");
        return { resellers: JSON.stringify(resellers), histories, orders: orders.text };
      };
      const before = await money();

      const routes = scanApiRoutes();
      const fields = knownFieldNames();
      const otherIds = [bId, bOrderId, bKey, adminId];
      const rng = random(SEED);
      const faults: string[] = [];
      let sent = 0;
      let inputs = 0;

      /** The caller a route serves: the key for v1, else the first session it does not refuse. */
      const callerOf = async (route: ApiRoute, path: string): Promise<Caller> => {
        if (route.file.startsWith("v1/")) return callers.key;
        // Ending the admin's session would blind the rest of the run: sent signed out instead.
        if (route.file === "logout.ts") return callers.anonymous;
        const method = route.method === "ALL" ? "POST" : route.method;
        for (const c of [callers.admin, callers.reseller]) {
          const r = await send(
            server.url,
            c,
            method,
            path,
            method === "GET" ? undefined : { label: "{}", text: "{}" },
          );
          sent++;
          if (r.status !== 403 && r.status !== 401) return c;
        }
        return callers.anonymous;
      };

      /** The path variants: another user's id where the caller may not use it, then garbage. */
      const pathsOf = (route: ApiRoute, caller: Caller) => {
        const variants: { path: string; othersId: boolean }[] = [];
        const own = caller.name === "reseller" || caller.name === "key";
        const idFor = (name: string, url: string) => {
          if (name === "path") return "no/such/route";
          if (name === "supplierName") return "mlbb";
          if (name === "provider") return "hitpay";
          if (!own) return crypto.randomUUID();
          if (name === "keyId") return bKey;
          if (url.includes("order")) return bOrderId;
          if (url.includes("/reseller/")) return bId;
          return crypto.randomUUID();
        };
        const first = routeUrl(route.file, idFor);
        variants.push({ path: first, othersId: own && otherIds.some((id) => first.includes(id)) });
        if (route.file.includes("[")) {
          for (
            const junk of [
              "not-a-uuid",
              "%00",
              "a%00b",
              "x".repeat(3000),
              "-1",
              "..%2F..%2Fetc",
              "%E2%80%AE",
              "1e309",
            ]
          ) {
            variants.push({ path: routeUrl(route.file, () => junk), othersId: false });
          }
        }
        return variants;
      };

      const queue: (() => Promise<void>)[] = [];
      for (const route of routes) {
        const method = route.method === "ALL" ? "POST" : route.method;
        const caller = await callerOf(route, routeUrl(route.file, () => crypto.randomUUID()));
        const isV1 = route.file.startsWith("v1/");
        const paths = pathsOf(route, caller);
        const jobs: { path: string; othersId: boolean; body?: Body }[] = [];
        for (const p of paths) jobs.push({ ...p });
        for (const q of QUERIES) {
          jobs.push({ path: paths[0].path + q, othersId: paths[0].othersId });
        }
        if (method !== "GET") {
          for (const body of hostileBodies(fields, otherIds, rng, RANDOM_BODIES)) {
            jobs.push({ path: paths[0].path, othersId: paths[0].othersId, body });
          }
        }
        for (const job of jobs) {
          queue.push(async () => {
            inputs++;
            const what = `${caller.name} ${method} ${job.path.slice(0, 120)} ${
              job.body?.label ?? ""
            }`;
            try {
              const answer = await send(server.url, caller, method, job.path, job.body);
              sent++;
              const wrong = fault(answer, isV1, job.othersId);
              if (wrong) faults.push(`${what}: ${wrong} ${answer.text.slice(0, 160)}`);
            } catch (error) {
              faults.push(`${what}: no answer (${error instanceof Error ? error.message : error})`);
            }
          });
        }
      }

      await t.step(
        `${routes.length} route handlers, ${queue.length} hostile requests`,
        async () => {
          const started = Date.now();
          let next = 0;
          await Promise.all(
            Array.from({ length: PARALLEL }, async () => {
              while (next < queue.length) await queue[next++]();
            }),
          );
          console.log(
            `hostile input (${tdb.backend}): ${routes.length} route handlers, ${inputs} bad inputs, ` +
              `${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED}`,
          );
          assert.deepEqual(faults, []);
        },
      );

      await t.step("no money moved and the server still answers", async () => {
        assert.deepEqual(await money(), before);
        assert.equal((await a.get("/api/current_user")).status, 200);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
