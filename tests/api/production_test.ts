// Production mode refuses to be unsafe: an unsafe environment stops `serve` with a line
// naming each problem; a safe one serves no simulator, builds every absolute URL from PUBLIC_URL
// whatever Host a request claims, and marks the session cookie Secure over the proxy's plain http.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): production
// mode's refusals, URLs and cookies are the configuration's and the HTTP layer's, whatever the
// database.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInAdmin, signInDemoAdmin } from "../helpers/sessions.ts";
import { paymentBody } from "../helpers/consumer-payments.ts";
import {
  productionEnv,
  PUBLIC_URL,
  startLiveServiceSimulators,
  unreachableServices,
} from "../helpers/production.ts";
import { createMobileLegendsGame } from "../../src/domain/catalogue/demo-catalogue.ts";
import { consumerGamePage } from "../../src/domain/catalogue/consumer-catalogue.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const EVIL = "evil.example";

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Status line, headers and body, to search for anything echoed. */
  whole: string;
}

/** One request with a Host (and X-Forwarded-Host) of an attacker's choosing; fetch cannot set Host. */
function requestAs(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  const target = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: target.hostname,
      port: target.port,
      method,
      path,
      headers: {
        host: EVIL,
        "x-forwarded-host": EVIL,
        ...(body === undefined
          ? {}
          : { "content-type": "application/json", "content-length": String(body.length) }),
        ...headers,
      },
    }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => text += chunk);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          whole: `${res.statusCode} ${JSON.stringify(res.headers)}\n${text}`,
        }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

Deno.test({
  name: "[production] an unsafe setting stops `serve` with a line naming it, exit 1",
  ...opts,
  async fn() {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "cli/main.ts", "serve", "--no-build"],
      env: {
        ...productionEnv(unreachableServices()),
        PORT: "0",
        HITPAY_MODE: "simulator",
        PUBLIC_URL: "http://shop.example.com",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 1, err);
    assert.doesNotMatch(new TextDecoder().decode(stdout), /Serving on/);
    assert.match(err, /^Error: Invalid configuration:$/m);
    assert.match(err, /^ {2}HITPAY_MODE: simulator is not allowed when APP_MODE is production/m);
    assert.match(err, /^ {2}PUBLIC_URL: must start with https:\/\/ when APP_MODE is production/m);
  },
});

/** Runs the CLI with `env`, no terminal on its standard input. */
async function cli(args: string[], env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "cli/main.ts", ...args],
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, out: decoder.decode(stdout), err: decoder.decode(stderr) };
}

Deno.test({
  name: "[production] on a database the demo ran on, start refuses naming the demo accounts " +
    "until `demo remove`; then the demo admin cannot sign in",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const env: Record<string, string> = {
      ...tdb.env,
      ...productionEnv(unreachableServices()),
      PORT: "0",
      RUN_JOBS: "0",
    };
    try {
      await t.step("the operator forgets APP_MODE once: the demo seeds its data", async () => {
        const demo = await startTestServer(tdb);
        try {
          // The sign-in lines follow "Serving on", which can reach the pipe on its own first.
          const signIn = /Admin sign-in: +\/admin +admin@demo\.test/;
          for (let i = 0; i < 100 && !signIn.test(demo.output()); i++) await delay(100);
          assert.match(demo.output(), signIn);
          // Anyone signs in with the published password and enrols an authenticator.
          await signInDemoAdmin(demo.url);
        } finally {
          await demo.stop();
        }
      });

      await t.step("production refuses to start, naming what the demo left", async () => {
        const serve = await cli(["serve", "--no-build"], env);
        assert.equal(serve.code, 1, serve.err);
        assert.doesNotMatch(serve.out, /Serving on/);
        assert.match(serve.err, /^Error: Not starting in production mode:$/m);
        assert.match(serve.err, /remove it with `npm run cli -- demo remove`/);
        for (
          const line of [
            /^ {4}admin admin@demo\.test: a demo account/m,
            /^ {4}reseller reseller@demo\.test: a demo account/m,
            /^ {4}the demo's sealing key/m,
            /^ {4}the demo catalogue, priced from the simulators: .*Mobile Legends/m,
            /^ {4}3 demo email\(s\)$/m,
          ]
        ) assert.match(serve.err, line);
        const doctor = await cli(["doctor"], env);
        assert.equal(doctor.code, 1, doctor.out);
        assert.match(doctor.out, /^Database: 6 problem\(s\); the server would not start$/m);
        assert.match(doctor.out, /^ {4}admin admin@demo\.test: a demo account/m);
      });

      await t.step(
        "`demo remove` asks first: without a terminal or --yes nothing goes",
        async () => {
          const refused = await cli(["demo", "remove"], env);
          assert.equal(refused.code, 1);
          assert.match(refused.err, /^ {2}admin admin@demo\.test: a demo account/m, "it says what");
          assert.match(refused.err, /pass --yes to confirm \(no terminal to ask on\)/);
          const doctor = await cli(["doctor"], env);
          assert.match(doctor.out, /^ {4}admin admin@demo\.test: a demo account/m);
        },
      );

      await t.step("`demo remove --yes` removes it; production starts", async () => {
        const removed = await cli(["demo", "remove", "--yes"], { ...env, USER: "ops-anna" });
        assert.equal(removed.code, 0, removed.err);
        assert.match(removed.out, /^deleted admin admin@demo\.test$/m);
        assert.match(removed.out, /^deleted reseller reseller@demo\.test$/m);
        assert.match(removed.out, /^sealed \d+ secret\(s\) again with APP_SECRET/m);
        assert.match(removed.out, /^No admin is left: set ADMIN_EMAIL and ADMIN_PASSWORD/m);
        const doctor = await cli(["doctor"], env);
        assert.equal(doctor.code, 0, doctor.out);
        assert.match(doctor.out, /^Database: no demo data, no published password$/m);
      });

      await t.step(
        "the demo's published sign-ins are gone; the operator's admin works",
        async () => {
          const server = await startTestServer(tdb, env);
          try {
            assert.match(server.output(), /Created superadmin ops@example\.com/);
            for (
              const [path, username, password] of [
                ["/api/login_admin", "admin@demo.test", "demo-admin-pass"],
                ["/api/login_reseller", "reseller@demo.test", "demo-reseller-pass"],
              ]
            ) {
              const r = await fetch(new URL(path, server.url), {
                method: "POST",
                headers: { "content-type": "application/json", origin: PUBLIC_URL },
                body: JSON.stringify({ username, password }),
              });
              assert.equal(r.status, 401, `${username}: ${await r.text()}`);
            }
            const ops = await fetch(new URL("/api/login_admin", server.url), {
              method: "POST",
              headers: { "content-type": "application/json", origin: PUBLIC_URL },
              body: JSON.stringify({ username: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
            });
            assert.equal(ops.status, 202, await ops.text());
          } finally {
            await server.stop();
          }
        },
      );
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name: "[production] no simulator, PUBLIC_URL in every absolute URL, Secure session cookie",
  ...opts,
  async fn(t) {
    const live = startLiveServiceSimulators();
    const tdb = await createTestDatabase();
    const item = await withHandle(tdb, async (db) => {
      // The shop's own game: a demo tile would make it demo data, which production refuses.
      await createMobileLegendsGame(db, live.suppliers, {
        consumerMarkup: 8.8,
        gameImage: "/uploads/mobile-legends.png",
      });
      const catalogue = await consumerGamePage(db, "mobile-legends");
      return catalogue!.packages.find((p) => p.name === "mlbb_special")!.items[0];
    });
    const env = productionEnv(live.services);
    const server = await startTestServer(tdb, { ...env, RUN_JOBS: "0" });
    try {
      await t.step(
        "/__sim/ is not mounted: control, invariants and the simulators are 404",
        async () => {
          const control = await requestAs(
            server.url,
            "POST",
            "/__sim/control",
            {},
            JSON.stringify({ target: "hitpay", action: "listRequests" }),
          );
          assert.equal(control.status, 404, control.body);
          for (const path of ["/__sim/invariants", "/__sim/hitpay/v1/payment-requests/x"]) {
            const r = await fetch(new URL(path, server.url));
            assert.equal(r.status, 404, path);
            await r.body?.cancel();
          }
        },
      );

      await t.step(
        "/metrics is off without METRICS_TOKEN; /readyz names its parts without details",
        async () => {
          const metrics = await fetch(new URL("/metrics", server.url));
          assert.equal(metrics.status, 404);
          await metrics.body?.cancel();
          const ready = await fetch(new URL("/readyz", server.url));
          assert.equal(ready.status, 200);
          assert.deepEqual(await ready.json(), {
            ready: true,
            checks: [
              { name: "database", ok: true },
              { name: "migrations", ok: true },
              { name: "jobs", ok: true },
            ],
          });
        },
      );

      await t.step("pages, the OpenAPI document and redirects never echo the Host", async () => {
        const paths = [
          "/",
          "/consumers",
          "/consumers/mobile-legends",
          "/resellers",
          "/resellers/api",
          "/admin",
          "/home",
          "/admin/home",
          "/no-such-page",
          "/api/current_user",
          "/api/v1/openapi.json",
          "/sitemap.xml",
          "/robots.txt",
        ];
        for (const path of paths) {
          const r = await requestAs(server.url, "GET", path);
          assert.ok(r.status < 500, `${path}: ${r.status}`);
          assert.ok(!r.whole.includes(EVIL), `${path} echoed the Host:\n${r.whole.slice(0, 2000)}`);
        }
        const home = await requestAs(server.url, "GET", "/home");
        assert.equal(home.status, 302);
        assert.equal(home.headers.location, "/");
        const openapi = JSON.parse(
          (await requestAs(server.url, "GET", "/api/v1/openapi.json")).body,
        );
        assert.deepEqual(openapi.servers, [{ url: PUBLIC_URL }]);
        const sitemap = (await requestAs(server.url, "GET", "/sitemap.xml")).body;
        assert.ok(sitemap.includes(`<loc>${PUBLIC_URL}/consumers/mobile-legends</loc>`), sitemap);
        const game = (await requestAs(server.url, "GET", "/consumers/mobile-legends")).body;
        assert.ok(
          game.includes(`<link rel="canonical" href="${PUBLIC_URL}/consumers/mobile-legends">`),
        );
        const robots = (await requestAs(server.url, "GET", "/robots.txt")).body;
        assert.ok(robots.includes(`Sitemap: ${PUBLIC_URL}/sitemap.xml`), robots);
      });

      await t.step(
        "the consumer payment gives HitPay PUBLIC_URL's return and webhook URLs",
        async () => {
          const r = await requestAs(
            server.url,
            "POST",
            "/api/payment/hitpay/mlbb",
            {},
            JSON.stringify(paymentBody(item.key, item.price)),
          );
          assert.equal(r.status, 201, r.body);
          assert.ok(!r.whole.includes(EVIL), r.whole);
          const [request] = live.hitpay.listRequests();
          assert.equal(request.reference_number, JSON.parse(r.body).orderID);
          assert.ok(request.redirect_url?.startsWith(`${PUBLIC_URL}/`), request.redirect_url!);
          assert.equal(request.webhook, `${PUBLIC_URL}/api/payment/hitpay/webhook`);
        },
      );

      await t.step(
        "the session cookie is __Host- and Secure over plain http; signed-in answers are " +
          "never stored; upload URLs are PUBLIC_URL's",
        async () => {
          const login = await requestAs(
            server.url,
            "POST",
            "/api/login_admin",
            {},
            JSON.stringify({ username: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
          );
          assert.equal(login.status, 202, login.body);
          const cookie = [login.headers["set-cookie"]].flat()
            .find((c) => c?.startsWith("__Host-topup_session="));
          assert.match(cookie ?? "", /; Path=\/;.*; Secure/i, String(login.headers["set-cookie"]));
          assert.doesNotMatch(cookie ?? "", /Domain=/i);
          assert.ok(!login.whole.includes(EVIL));

          const { client } = await signInAdmin(server.url, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
          const session = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
          const console = await requestAs(server.url, "GET", "/admin/home", { cookie: session });
          assert.equal(console.status, 200);
          assert.equal(console.headers["cache-control"], "no-store");
          const shop = await requestAs(server.url, "GET", "/admin", {});
          assert.notEqual(shop.headers["cache-control"], "no-store", "a page for anyone may be");
          const upload = await requestAs(
            server.url,
            "POST",
            "/api/generate-s3-bucket-url",
            { cookie: session },
            JSON.stringify({ fileName: "tile.png", fileType: "image/png" }),
          );
          assert.equal(upload.status, 200, upload.body);
          assert.ok(!upload.whole.includes(EVIL), upload.whole);
          const { presignedUrl, imageUrl } = JSON.parse(upload.body);
          for (const url of [presignedUrl, imageUrl]) {
            assert.ok(url.startsWith(`${PUBLIC_URL}/uploads/`), url);
          }
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
      await live.close();
    }
  },
});
