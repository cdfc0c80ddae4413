// The operator's view, checked by a real Prometheus (Debian's `prometheus` package): it scrapes
// the test server with the scrape config README shows, loads deploy/prometheus/alerts.yml, and
// after orders of each kind every query of deploy/grafana/topup.json returns data and every alert
// expression parses and evaluates. promtool also checks /metrics against Prometheus's naming
// conventions. Skipped, saying why, where the binaries are absent (CI installs them).
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin, signInDemoReseller, simControl } from "../helpers/sessions.ts";
import { pubgOrder } from "../helpers/orders.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  paymentRequestOf,
  postWebhook,
  waitForStatus,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const METRICS_TOKEN = "test-metrics-token-0123456789abcdef";
const DASHBOARD = "deploy/grafana/topup.json";
const RULES = "deploy/prometheus/alerts.yml";

function installed(binary: string): boolean {
  try {
    new Deno.Command(binary, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

const present = installed("prometheus") && installed("promtool");
// CI runs every suite: there a missing binary fails rather than skips.
const skip = !present && !Deno.env.get("CI");

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The dashboard's queries, with their panel's title. */
async function dashboardQueries(): Promise<{ panel: string; expr: string }[]> {
  const dashboard = JSON.parse(await Deno.readTextFile(DASHBOARD)) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  return dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr }))
  );
}

/** The alert rules' names and expressions (alerts.yml keeps each on `expr:` or a `>-` block). */
async function alertExpressions(): Promise<{ alert: string; expr: string }[]> {
  const text = await Deno.readTextFile(RULES);
  return [
    ...text.matchAll(/- alert: (\w+)\n(?:\s*#.*\n)*\s*expr: (?:>-\n((?:\s{10}.*\n)+)|(.*)\n)/g),
  ]
    .map((m) => ({ alert: m[1], expr: (m[2] ?? m[3]).trim().replace(/\s*\n\s*/g, " ") }));
}

Deno.test({
  name:
    `[prometheus] a real Prometheus scrapes /metrics: every dashboard query returns data, every alert expression evaluates${
      skip
        ? " (skipped: prometheus and promtool are not installed; apt-get install prometheus)"
        : ""
    }`,
  ignore: skip,
  ...opts,
  async fn(t) {
    assert.ok(present, "prometheus and promtool are installed (apt-get install prometheus)");
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      METRICS_TOKEN,
      TRUST_PROXY: "true",
      FX_CACHE_SECONDS: "0",
    });
    const dir = await Deno.makeTempDir({ prefix: "topup-prometheus-" });
    const promPort = freePort();
    const target = new URL(server.url).host;
    // The scrape config README shows, scraping every second so a short test has several samples.
    await Deno.writeTextFile(
      `${dir}/prometheus.yml`,
      `global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - ${Deno.realPathSync(RULES)}
scrape_configs:
  - job_name: topup
    metrics_path: /metrics
    authorization:
      credentials: ${METRICS_TOKEN}
    static_configs:
      - targets: ["${target}"]
`,
    );
    const prometheus = new Deno.Command("prometheus", {
      args: [
        `--config.file=${dir}/prometheus.yml`,
        `--storage.tsdb.path=${dir}/data`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const promLog = (async () => {
      let text = "";
      for await (const chunk of prometheus.stderr.pipeThrough(new TextDecoderStream())) {
        text += chunk;
      }
      return text;
    })();
    const api = `http://127.0.0.1:${promPort}/api/v1`;
    const query = async (expr: string) => {
      const r = await fetch(`${api}/query?${new URLSearchParams({ query: expr })}`);
      return await r.json() as {
        status: string;
        error?: string;
        data?: { result: unknown[] };
      };
    };
    const eventually = async (what: string, probe: () => Promise<boolean>) => {
      for (let i = 0; i < 150; i++) {
        if (await probe().catch(() => false)) return;
        await new Promise((ok) => setTimeout(ok, 200));
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    try {
      await t.step("promtool check metrics passes on /metrics", async () => {
        const r = await fetch(new URL("/metrics", server.url), {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        const text = await r.text();
        const child = new Deno.Command("promtool", {
          args: ["check", "metrics"],
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(text));
        await writer.close();
        const out = await child.output();
        const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
        assert.equal(out.code, 0, said);
        assert.equal(said.trim(), "", "no lint findings");
      });

      await t.step("Prometheus scrapes the server and loads the rules", async () => {
        await eventually("the first scrape", async () => {
          const up = await query('up{job="topup"}');
          return (up.data?.result as { value: [number, string] }[])?.[0]?.value[1] === "1";
        });
        const rules = await (await fetch(`${api}/rules`)).json();
        const loaded = rules.data.groups.flatMap((g: { rules: { name: string }[] }) => g.rules);
        assert.equal(loaded.length, (await alertExpressions()).length, "every rule is loaded");
      });

      await t.step("orders of each kind, a bad webhook, a rate view", async () => {
        const reseller = await signInDemoReseller(server.url);
        const { body } = await pubgOrder(reseller);
        for (let i = 0; i < 2; i++) {
          const r = await reseller.post("/api/reseller/place_order", body);
          assert.equal(r.status, 201, r.text);
        }
        await simControl(server.url, "elitedias", "rejectOrders");
        const refused = await reseller.post("/api/reseller/place_order", body);
        assert.equal(refused.status, 201, refused.text);
        await eventually("the refused order counted failed", async () => {
          const r = await fetch(new URL("/metrics", server.url), {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          });
          return /topup_orders_total\{[^}]*event="failed"[^}]*audience="reseller"/.test(
            await r.text(),
          );
        });
        await simControl(server.url, "elitedias", "acceptOrders");

        const admin = await signInDemoAdmin(server.url);
        const games = (await admin.get("/api/admin/games")).json as GameDto[];
        const special = games.find((g) => g.supplierName === "mlbb")!.packages
          .find((p) => p.name === "mlbb_special")!;
        const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
        const price = centsToDollars(
          computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
        );
        const buyer = consumerAt(server.url, "198.51.100.7");
        const paid = await buyer.post(
          "/api/payment/hitpay/mlbb",
          paymentBody(item.nameSupplier, price),
        );
        assert.equal(paid.status, 201, paid.text);
        await hitpaySim(server.url, "pay", [
          (await paymentRequestOf(server.url, paid.json.orderID)).id,
        ]);
        await hitpaySim(server.url, "awaitWebhooks");
        assert.equal(await waitForStatus(buyer, paid.json.orderID, ["successful"]), "successful");

        const forged = await postWebhook(
          server.url,
          "reference_number=x&status=completed&hmac=bad",
        );
        assert.equal(forged.status, 401);
        assert.equal((await reseller.get("/api/yahoo_finance/usd_sgd")).status, 200);
        // The cron's reconciliation, a process of its own; PGlite's database is the server's alone.
        if (tdb.backend === "postgres") {
          const run = await new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", "cli/main.ts", "payments", "reconcile", "--json"],
            env: { ...tdb.env, TOPUP_INTERNAL_URL: server.url },
          }).output();
          assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
        }
      });

      await t.step("every dashboard query returns data", async () => {
        // Several scrapes after the last step, so every rate has two samples of its series.
        await new Promise((ok) => setTimeout(ok, 4000));
        // On PGlite no reconciliation ran (above): its panels may be empty there.
        const reconciled = tdb.backend === "postgres";
        const noData = [];
        for (const { panel, expr } of await dashboardQueries()) {
          const answer = await query(expr);
          assert.equal(answer.status, "success", `${panel}: ${expr}: ${answer.error}`);
          if (!answer.data?.result.length && (reconciled || !expr.includes("topup_reconcile_"))) {
            noData.push(`${panel}: ${expr}`);
          }
        }
        assert.deepEqual(noData, [], "panels without data");
      });

      await t.step(
        "every alert expression parses and the rules evaluate without error",
        async () => {
          // Each series an alert reads is one Prometheus has (a misspelt name would never fire).
          const known = new Set(
            (await (await fetch(`${api}/label/__name__/values`)).json()).data as string[],
          );
          for (const { alert, expr } of await alertExpressions()) {
            const answer = await query(expr);
            assert.equal(answer.status, "success", `${alert}: ${expr}: ${answer.error}`);
            const unreconciled = tdb.backend !== "postgres";
            for (const [name] of expr.matchAll(/\btopup_[a-z_]+/g)) {
              if (unreconciled && name.startsWith("topup_reconcile_")) continue;
              assert.ok(known.has(name), `${alert} reads ${name}, which no scrape has`);
            }
          }
          await eventually("every rule evaluated", async () => {
            const rules = await (await fetch(`${api}/rules`)).json();
            const all = rules.data.groups.flatMap((g: { rules: { health: string }[] }) => g.rules);
            return all.every((r: { health: string }) => r.health === "ok");
          });
        },
      );
    } finally {
      prometheus.kill("SIGTERM");
      await prometheus.status;
      await promLog;
      await server.stop();
      await tdb.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
