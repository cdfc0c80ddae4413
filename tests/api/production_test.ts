// Production mode refuses to be unsafe (issue 20): an unsafe environment stops `serve` with a line
// naming each problem; a safe one serves no simulator, builds every absolute URL from PUBLIC_URL
// whatever Host a request claims, and marks the session cookie Secure over the proxy's plain http.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): production
// mode's refusals, URLs and cookies are the configuration's and the HTTP layer's, whatever the
// database.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInAdmin } from "../helpers/sessions.ts";
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

Deno.test({
  name: "[production] no simulator, PUBLIC_URL in every absolute URL, Secure session cookie",
  ...opts,
  async fn(t) {
    const live = startLiveServiceSimulators();
    const tdb = await createTestDatabase();
    const item = await withHandle(tdb, async (db) => {
      await createMobileLegendsGame(db, live.suppliers, { consumerMarkup: 8.8 });
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
        "the session cookie is Secure over plain http; upload URLs are PUBLIC_URL's",
        async () => {
          const login = await requestAs(
            server.url,
            "POST",
            "/api/login_admin",
            {},
            JSON.stringify({ username: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
          );
          assert.equal(login.status, 202, login.body);
          const cookie = [login.headers["set-cookie"]].flat().find((c) => c?.startsWith("topup_"));
          assert.match(cookie ?? "", /; Secure/i);
          assert.ok(!login.whole.includes(EVIL));

          const { client } = await signInAdmin(server.url, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
          const session = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
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
