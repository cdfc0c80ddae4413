// The reseller API's contract: every operation of GET /api/v1/openapi.json is called
// against a running server, for its success and for each error status it documents, and every
// answer is validated against the document with a JSON Schema validator (Ajv, draft 2020-12 as
// OpenAPI 3.1 uses). An answer the document does not admit (an undocumented status, a body its
// schema refuses) fails the suite, as does a documented status no call produced, a header the
// document requires missing, or a keyed answer without its RateLimit-* headers.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): answers against
// the OpenAPI document; the API's storage rules run on both backends in reseller-api_test.ts and
// reseller-orders_test.ts.
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";
import { signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { API_KEY_REQUESTS } from "../../src/domain/auth/rate-limit.ts";
import { createTestReseller } from "../helpers/resellers.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The body time limit of the server under test, short enough to see its 408 in the suite. */
const BODY_TIMEOUT_MS = 1_000;
/** Statuses no call can provoke on a healthy server: an unexpected failure. */
const NOT_PROVOKED = new Set(["500"]);

type Answer = { status: number; text: string; json: unknown; headers?: Headers };
type HeaderSpec = { $ref?: string; required?: boolean; schema?: { type?: string } };
type Operation = {
  responses: Record<
    string,
    { $ref?: string; content?: unknown; headers?: Record<string, HeaderSpec> }
  >;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, unknown>; headers: Record<string, HeaderSpec> };
};

/** Answers given before a key's quota is taken: no RateLimit-* headers. */
const UNKEYED = new Set([401, 405, 408, 413]);
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

const pointer = (...parts: string[]) =>
  "#/" + parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Checks answers against the document; collects every disagreement instead of stopping. */
class Contract {
  readonly mismatches: string[] = [];
  readonly seen = new Set<string>();
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(readonly doc: Document) {
    addFormats(this.#ajv);
    this.#ajv.addSchema(doc as object, "doc");
  }

  /** `op` is "method /path/template" as the document names it. */
  check(op: string, expected: number, answer: Answer, what = "") {
    const label = `${op} → ${answer.status}${what ? ` (${what})` : ""}`;
    const [method, path] = op.split(" ");
    const operation = this.doc.paths[path]?.[method];
    if (!operation) {
      this.mismatches.push(`${label}: the document has no such operation`);
      return;
    }
    if (answer.status !== expected) {
      this.mismatches.push(`${label}: expected ${expected}; ${answer.text.slice(0, 200)}`);
    }
    const status = String(answer.status);
    let response = operation.responses[status];
    let at = pointer("paths", path, method, "responses", status);
    if (!response) {
      this.mismatches.push(`${label}: status not documented; ${answer.text.slice(0, 200)}`);
      return;
    }
    this.seen.add(`${op} ${status}`);
    if (response.$ref) {
      at = response.$ref;
      response = this.doc.components.responses[response.$ref.split("/").pop()!] as Operation[
        "responses"
      ][string];
    }
    this.checkHeaders(label, answer, response.headers ?? {});
    if (!(response.content as Record<string, unknown> | undefined)?.["application/json"]) {
      this.mismatches.push(`${label}: the document gives no JSON body`);
      return;
    }
    if (answer.json === undefined) {
      this.mismatches.push(`${label}: not JSON: ${answer.text.slice(0, 200)}`);
      return;
    }
    const validate = this.#ajv.compile({
      $ref: `doc${at}${pointer("content", "application/json", "schema").slice(1)}`,
    });
    if (!validate(answer.json)) {
      this.mismatches.push(
        `${label}: body not admitted: ${this.#ajv.errorsText(validate.errors)}; ${
          answer.text.slice(0, 300)
        }`,
      );
    }
  }

  /** The headers the document requires, in the type it gives; the key's quota; the request id. */
  checkHeaders(label: string, answer: Answer, documented: Record<string, HeaderSpec>) {
    const headers = answer.headers;
    if (!headers) return; // a raw socket answer (the stalled body): its body is still checked
    for (const [name, spec] of Object.entries(documented)) {
      const header = spec.$ref ? this.doc.components.headers[spec.$ref.split("/").pop()!] : spec;
      const value = headers.get(name);
      if (value === null) {
        if (header.required) this.mismatches.push(`${label}: no ${name} header`);
        continue;
      }
      if (header.schema?.type === "integer" && !/^\d+$/.test(value)) {
        this.mismatches.push(`${label}: ${name} is not an integer: ${value}`);
      }
    }
    if (!UNKEYED.has(answer.status)) {
      for (const name of RATE_LIMIT_HEADERS) {
        if (!headers.has(name)) this.mismatches.push(`${label}: no ${name} header`);
        if (!documented[name]) this.mismatches.push(`${label}: ${name} not documented`);
      }
    }
    const requestId = (answer.json as { error?: { requestId?: string } } | undefined)?.error
      ?.requestId;
    if (answer.status >= 400 && requestId !== headers.get("x-request-id")) {
      this.mismatches.push(
        `${label}: error.requestId ${requestId} is not X-Request-Id ${headers.get("x-request-id")}`,
      );
    }
  }

  /** Documented (operation, status) pairs no call produced. */
  unexercised(): string[] {
    return Object.entries(this.doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.keys(op.responses).filter((s) => !NOT_PROVOKED.has(s))
          .map((s) => `${method} ${path} ${s}`)
          .filter((key) => !this.seen.has(key))
      )
    );
  }
}

function keyClient(base: string, secret: string): TestClient {
  return new TestClient(base, { authorization: `Bearer ${secret}` });
}

async function newKey(base: string, session: TestClient, name: string): Promise<TestClient> {
  const r = await session.post("/api/reseller/api_keys", { name });
  assert.equal(r.status, 201, r.text);
  return keyClient(base, r.json.secret);
}

/** Sends the head of a request and only the first byte of its body, and reads the answer. */
async function stalledBody(base: string, method: string, path: string, key: string) {
  const url = new URL(base);
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const head = [
    `${method.toUpperCase()} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: ${key}`,
    "Content-Type: application/json",
    "Content-Length: 100",
    "",
    "{",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  const raw = new TextDecoder().decode(
    await new Response(conn.readable).arrayBuffer(),
  );
  const [top, ...rest] = raw.split("\r\n\r\n");
  let body = rest.join("\r\n\r\n");
  if (/transfer-encoding:\s*chunked/i.test(top)) {
    let decoded = "";
    for (let at = 0;;) {
      const end = body.indexOf("\r\n", at);
      const size = parseInt(body.slice(at, end), 16);
      if (!size) break;
      decoded += body.slice(end + 2, end + 2 + size);
      at = end + 2 + size + 2;
    }
    body = decoded;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(top.split(" ")[1]), text: body, json };
}

Deno.test({
  name: "[reseller api contract] every operation's answers are the ones its document admits",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    await withHandle(tdb, async (db) => {
      await seedDemoUsers(db);
      await createTestReseller(db, {
        name: "Poor Reseller",
        email: "poor@test.example",
        password: "poor-reseller-pass",
        balanceCents: 1,
      });
    });
    let server: TestServer | undefined;
    try {
      server = await startTestServer(tdb, { BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
      const base = server.url;
      const docAnswer = await new TestClient(base).get("/api/v1/openapi.json");
      assert.equal(docAnswer.status, 200);
      const contract = new Contract(docAnswer.json);
      const session = await signInDemoReseller(base);
      const a = await newKey(base, session, "contract");
      const poorSession = new TestClient(base);
      assert.equal(
        (await poorSession.post("/api/login_reseller", {
          username: "poor@test.example",
          password: "poor-reseller-pass",
        })).status,
        200,
      );
      const poor = await newKey(base, poorSession, "poor");
      const check = contract.check.bind(contract);
      const expect = (holds: boolean, what: string) => {
        if (!holds) contract.mismatches.push(what);
      };

      const games = await a.get("/api/v1/games");
      check("get /api/v1/games", 200, games);
      const pubg = games.json.games.find((g: { name: string }) => g.name === "PUBG Mobile");
      const item = pubg.items[0] as { key: string; price: number };
      const unknownGame = "00000000-0000-4000-8000-000000000000";
      const order = { gameId: pubg.id, item: item.key, userid: "5551234" };

      const verify = (body: unknown) => a.post("/api/v1/verify", body);
      const account = { gameId: pubg.id, userid: "5551234" };
      check("post /api/v1/verify", 200, await verify(account), "valid");
      check(
        "post /api/v1/verify",
        200,
        await verify({ ...account, userid: "invalid1" }),
        "invalid",
      );
      check("post /api/v1/verify", 400, await verify({ gameId: pubg.id }), "no userid");
      check("post /api/v1/verify", 400, await verify({ ...account, userid: "  " }), "blank");
      check("post /api/v1/verify", 400, await verify({ ...account, userid: "1".repeat(65) }));
      check("post /api/v1/verify", 404, await verify({ ...account, gameId: unknownGame }));
      const extra = await verify({ ...account, region: "ph" });
      check("post /api/v1/verify", 400, extra, "unknown field");
      expect(extra.json?.error?.message === "Unknown field: region", `named: ${extra.text}`);
      // Each supplier's shape of `result`: Mobile Legends (its package decided), MooGold.
      const byName = (name: string) =>
        games.json.games.find((g: { name: string }) => g.name === name);
      const ml = { gameId: byName("Mobile Legends").id, userid: "22222222", serverid: "2222" };
      check("post /api/v1/verify", 200, await verify(ml), "Mobile Legends");
      check(
        "post /api/v1/verify",
        200,
        await verify({ ...ml, userid: "55555555" }),
        "MLBB invalid",
      );
      check(
        "post /api/v1/verify",
        200,
        await verify({ gameId: byName("Free Fire").id, userid: "123456789" }),
        "MooGold",
      );

      const place = (body: unknown, key?: string, client = a) =>
        client.post("/api/v1/orders", body, key ? { "idempotency-key": key } : {});
      const balance = async () => (await a.get("/api/v1/balance")).json.balance;
      const before = await balance();
      // Refused before anything is bought: a text body, a field the API does not read.
      const asText = await a.request(
        "POST",
        "/api/v1/orders",
        JSON.stringify(order),
        { "content-type": "text/plain", "idempotency-key": "c-text" },
      );
      check("post /api/v1/orders", 415, asText, "text/plain");
      const five = await place({ ...order, quantity: 5 }, "c-quantity");
      check("post /api/v1/orders", 400, five, "quantity: 5");
      expect(five.json?.error?.message === "Unknown field: quantity", `named: ${five.text}`);
      expect(await balance() === before, "a refused order charged nothing");

      const placed = await place({ ...order, expectedPrice: item.price }, "contract-1");
      check("post /api/v1/orders", 201, placed);
      expect(!placed.headers.has("idempotent-replayed"), "a new order is not marked a replay");
      const replay = await place({ ...order, expectedPrice: item.price }, "contract-1");
      check("post /api/v1/orders", 201, replay, "replay");
      if (replay.text !== placed.text) {
        contract.mismatches.push(`a replay is not the first answer byte for byte: ${replay.text}`);
      }
      expect(replay.headers.get("idempotent-replayed") === "true", "a replay is marked");
      check("post /api/v1/orders", 400, await place(order), "no Idempotency-Key");
      check(
        "post /api/v1/orders",
        400,
        await place({ ...order, userid: "invalid1" }, "c-invalid"),
        "invalid account",
      );
      check("post /api/v1/orders", 402, await place(order, "c-poor", poor));
      check("post /api/v1/orders", 404, await place({ ...order, gameId: unknownGame }, "c-game"));
      check("post /api/v1/orders", 404, await place({ ...order, item: "no-such" }, "c-item"));
      check(
        "post /api/v1/orders",
        409,
        await place({ ...order, userid: "5559999" }, "contract-1"),
        "key reused",
      );
      check(
        "post /api/v1/orders",
        409,
        await place(
          { ...order, expectedPrice: (Math.round(item.price * 100) + 100) / 100 },
          "c-price",
        ),
      );

      check("get /api/v1/orders", 200, await a.get("/api/v1/orders?limit=5"));
      check("get /api/v1/orders", 400, await a.get("/api/v1/orders?status=bogus"));
      const reversed = await a.get("/api/v1/orders?from=2026-11-20&to=2026-11-01");
      check("get /api/v1/orders", 400, reversed, "from after to");
      expect(reversed.json?.error?.message === "from: must not be after to", reversed.text);
      check("get /api/v1/orders", 200, await a.get("/api/v1/orders?from=2026-11-01&to=2026-11-01"));
      const typo = await a.get("/api/v1/orders?limt=5");
      check("get /api/v1/orders", 400, typo, "unknown parameter");
      expect(typo.json?.error?.message === "Unknown parameter: limt", typo.text);
      check(
        "get /api/v1/orders/{id}",
        200,
        await a.get(`/api/v1/orders/${placed.json?.order?.id}`),
      );
      check("get /api/v1/orders/{id}", 404, await a.get("/api/v1/orders/R0NOSUCHORDER"));
      check("get /api/v1/balance", 200, await a.get("/api/v1/balance"));
      check("get /api/v1/balance/history", 200, await a.get("/api/v1/balance/history?limit=2"));
      check("get /api/v1/balance/history", 400, await a.get("/api/v1/balance/history?cursor=%25"));

      check("get /api/v1/webhook", 200, await a.get("/api/v1/webhook"), "none set");
      check(
        "post /api/v1/webhook/roll_secret",
        400,
        await a.post("/api/v1/webhook/roll_secret", {}),
        "none set",
      );
      const hook = (url: unknown) => a.request("PUT", "/api/v1/webhook", { url });
      check("put /api/v1/webhook", 200, await hook("http://127.0.0.1:9/hooks/a"), "first");
      check("put /api/v1/webhook", 200, await hook("http://127.0.0.1:9/hooks/b"), "change");
      check("put /api/v1/webhook", 400, await hook("ftp://shop.example/x"));
      check(
        "put /api/v1/webhook",
        400,
        await a.request("PUT", "/api/v1/webhook", { url: "https://shop.example/h", events: [] }),
        "unknown field",
      );
      check("get /api/v1/webhook", 200, await a.get("/api/v1/webhook"), "set");
      check(
        "post /api/v1/webhook/roll_secret",
        200,
        await a.post("/api/v1/webhook/roll_secret", {}),
      );

      // The suppliers fail: verifying, and ordering (which verifies first), is a 502.
      for (const target of ["moogold", "elitedias"] as const) {
        await simControl(base, target, "setKnobs", [], { errorRate: 1 });
      }
      check("post /api/v1/verify", 502, await verify(account));
      check("post /api/v1/orders", 502, await place(order, "c-upstream"));
      for (const target of ["moogold", "elitedias"] as const) {
        await simControl(base, target, "setKnobs", [], { errorRate: 0 });
      }

      // What every operation can answer: no key, a method the path lacks, a burnt rate limit,
      // and for those with a body, one too large and one too slow.
      const limited = await newKey(base, session, "limited");
      for (let i = 0; i < API_KEY_REQUESTS.max; i++) await limited.get("/api/v1/balance");
      const anonymous = new TestClient(base);
      for (const [path, ops] of Object.entries(contract.doc.paths)) {
        const concrete = path.replace("{id}", placed.json?.order?.id ?? "x");
        for (const method of Object.keys(ops)) {
          const op = `${method} ${path}`;
          const withBody = method !== "get";
          const body = withBody ? {} : undefined;
          check(op, 401, await anonymous.request(method, concrete, body));
          check(op, 429, await limited.request(method, concrete, body));
          check(op, 405, await a.request("PATCH", concrete, {}), "PATCH");
          if (!withBody) {
            // HEAD wherever GET is served: the GET's status and headers, no body.
            const get = await a.get(concrete);
            const head = await a.request("HEAD", concrete);
            expect(
              head.status === get.status && head.text === "" &&
                head.headers.get("content-type") === get.headers.get("content-type") &&
                head.headers.get("content-length") ===
                  String(new TextEncoder().encode(get.text).length) &&
                head.headers.has("ratelimit-remaining"),
              `HEAD ${path}: ${head.status} ${head.headers.get("content-type")} "${head.text}"`,
            );
          }
          if (withBody) {
            check(
              op,
              415,
              await a.request(method, concrete, "{}", { "content-type": "text/plain" }),
            );
            check(op, 413, await a.request(method, concrete, "x".repeat(2 * 1024 * 1024)));
            const auth = a.headers.authorization;
            check(op, 408, await stalledBody(base, method, concrete, auth));
          }
        }
      }

      const docHead = await anonymous.request("HEAD", "/api/v1/openapi.json");
      expect(
        docHead.status === 200 && docHead.text === "" &&
          docHead.headers.get("content-length") ===
            String(new TextEncoder().encode(docAnswer.text).length),
        `HEAD /api/v1/openapi.json: ${docHead.status} "${docHead.text.slice(0, 100)}"`,
      );

      const unexercised = contract.unexercised();
      const report = [...contract.mismatches, ...unexercised.map((u) => `${u}: never answered`)];
      console.log(`${report.length} mismatches\n${report.join("\n")}`);
      assert.deepEqual(report, []);
    } finally {
      await server?.stop();
      await tdb.drop();
    }
  },
});
