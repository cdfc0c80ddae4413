import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/backends.ts";
import { SHORT_SUPPLIER_TIMEOUT, startTestServer, type TestServer } from "../helpers/server.ts";
import type { TestClient } from "../helpers/client.ts";
import { signInDemoAdmin, signInDemoReseller, simControl } from "../helpers/sessions.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

/** Independent check of spec §9: ceil to the cent of cost × (100 + markup) / 100, in integers. */
function expectedCents(cost: number, markup: number): number {
  const [ci, cf = ""] = String(cost).split(".");
  const [mi, mf = ""] = String(markup).split(".");
  const costUnits = BigInt(ci + cf.padEnd(6, "0"));
  const markupUnits = BigInt(mi + mf.padEnd(4, "0"));
  const numerator = costUnits * (1_000_000n + markupUnits);
  const denominator = 10n ** 6n * 10n ** 6n / 100n;
  return Number((numerator + denominator - 1n) / denominator);
}

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[catalogue] launch, reseller prices, edits, sync and supplier faults over HTTP",
  ...opts,
  async fn(t) {
    const tdb: TestDatabase = await createTestDatabase();
    // Its price sync meets a forced EliteDias timeout.
    const server: TestServer = await startTestServer(tdb, SHORT_SUPPLIER_TIMEOUT);
    let admin: TestClient;
    let reseller: TestClient;
    const games = async () => (await admin.get("/api/admin/games")).json as GameDto[];
    try {
      admin = await signInDemoAdmin(server.url);
      reseller = await signInDemoReseller(server.url);

      await t.step(
        "EliteDias launch: priced from the supplier, visible to resellers at the formula price",
        async () => {
          const denoms = (await admin.post("/api/denominations/ed", { game: "hok" }))
            .json as Record<string, number>;
          const items = Object.entries(denoms).map(([k]) => ({
            nameSupplier: k,
            nameReseller: k,
            cost: 999,
          }));
          const r = await admin.post("/api/launch_game", {
            name: "Honor of Kings",
            tagline: "Tokens",
            supplier: "elephant",
            supplierName: "hok",
            supplierNotes: "",
            supplierGameID: "",
            gameItems: items,
            consumerMarkup: 8.8,
            resellerMarkup: {},
            resellerMarkupAll: 12.5,
            markupForIndividualResellers: false,
            requiresServerID: false,
            requiresCharacterName: false,
            priority: 0,
            servers: {},
            gameImage: "",
            isHidden: false,
          });
          assert.equal(r.status, 201, r.text);
          const game = r.json as GameDto;
          assert.equal(game.priority, 8, "launched count (7 in the demo) + 1");
          for (const item of game.gameItems) {
            assert.equal(
              item.cost,
              denoms[item.nameSupplier],
              "the supplier's cost, not the browser's 999",
            );
          }
          const launched = (await admin.get("/api/launched_games")).json as {
            supplierName: string;
          }[];
          assert.ok(launched.some((g) => g.supplierName === "hok"));
          const grid = (await reseller.get("/api/reseller/games")).json as { _id: string }[];
          assert.ok(grid.some((g) => g._id === game._id));
          const cat = (await reseller.get(`/api/resellers/game/${game._id}`)).json;
          assert.equal(cat.gameItems.length, Object.keys(denoms).length);
          for (const item of cat.gameItems) {
            assert.equal(
              Math.round(item.price * 100),
              expectedCents(denoms[item.key], 12.5),
              item.key,
            );
          }
          const again = await admin.post("/api/launch_game", {
            ...r.json,
            supplier: "elephant",
            supplierName: "hok",
            gameItems: [],
          });
          assert.equal(again.status, 409, "a game is launched once");
        },
      );

      await t.step(
        "MooGold launch skips variations priced 0 and prices per reseller markup",
        async () => {
          const detail =
            (await admin.post("/api/product_detail/mg", { productID: "3689112" })).json;
          const variations = detail.Variation as {
            variation_id: number;
            variation_name: string;
            variation_price: number;
          }[];
          const r = await admin.post("/api/launch_game", {
            name: "Genshin Impact",
            supplier: "monkey",
            supplierName: detail.Product_Name,
            supplierGameID: "3689112",
            gameItems: variations.map((v) => ({
              id: String(v.variation_id),
              nameSupplier: v.variation_name,
              nameReseller: v.variation_name,
            })),
            consumerMarkup: 10,
            resellerMarkup: { "Demo Reseller": 7.25 },
            markupForIndividualResellers: true,
            requiresServerID: true,
          });
          assert.equal(r.status, 201, r.text);
          const game = r.json as GameDto;
          const priced = variations.filter((v) => v.variation_price > 0);
          assert.equal(game.gameItems.length, priced.length);
          const cat = (await reseller.get(`/api/resellers/game/${game._id}`)).json;
          for (const item of cat.gameItems) {
            const v = variations.find((x) => x.variation_name === item.key)!;
            assert.equal(Math.round(item.price * 100), expectedCents(v.variation_price, 7.25));
          }
        },
      );

      await t.step(
        "with a simulator failing, the spec's failure text and nothing written",
        async () => {
          const before = (await games()).length;
          await simControl(server.url, "elitedias", "failEndpoint", [
            "elitedias_games_data",
            "error",
          ]);
          const ed = await admin.get("/api/available_games/ed");
          assert.equal(ed.status, 502);
          assert.equal(ed.json.error, "Fail to get ED games");
          await simControl(server.url, "moogold", "failEndpoint", [
            "product/list_product",
            "malformed",
          ]);
          assert.equal(
            (await admin.get("/api/available_games/mg")).json.error,
            "Fail to get MG games",
          );
          await simControl(server.url, "moogold", "failEndpoint", [
            "product/product_detail",
            "error",
          ]);
          const mg = await admin.post("/api/product_detail/mg", { productID: 3689112 });
          assert.equal(mg.json.error, "Fail to get MG product detail");
          await simControl(server.url, "elitedias", "failEndpoint", [
            "elitedias_api_denominations",
            "error",
          ]);
          assert.equal(
            (await admin.post("/api/denominations/ed", { game: "pubgm" })).json.error,
            "Fail to get ED denominations",
          );
          const launch = await admin.post("/api/launch_game", {
            name: "Mobile Legends ED",
            supplier: "elephant",
            supplierName: "mlbb_exclusive",
          });
          assert.equal(launch.status, 502);
          assert.equal(launch.json.error, "Error launching game");
          assert.equal((await games()).length, before, "no game written");
          await simControl(server.url, "elitedias", "clearFaults");
          await simControl(server.url, "moogold", "clearFaults");
        },
      );

      await t.step(
        "edits are saved whole, hide items from resellers, and refuse a stale version",
        async () => {
          const pubg = (await games()).find((g) => g.supplierName === "pubgm")!;
          const hidden = pubg.gameItems[0].nameSupplier;
          const save = {
            ...pubg,
            resellerMarkupAll: 20,
            gameItems: pubg.gameItems.map((item, i) =>
              i === 0 ? { ...item, isHiddenReseller: true } : item
            ),
          };
          const ok = await admin.request("PUT", `/api/game/${pubg._id}`, save);
          assert.equal(ok.status, 200, ok.text);
          assert.equal(ok.json.version, pubg.version + 1);
          const cat = (await reseller.get(`/api/resellers/game/${pubg._id}`)).json;
          assert.ok(
            !cat.gameItems.some((i: { key: string }) => i.key === hidden),
            "hidden for resellers",
          );
          const stale = await admin.request("PUT", `/api/game/${pubg._id}`, save);
          assert.equal(stale.status, 409);
          const bad = await admin.request("PUT", `/api/game/${pubg._id}`, {
            ...save,
            version: ok.json.version,
            gameItems: [{ cost: -1 }],
          });
          assert.equal(bad.status, 400);
        },
      );

      await t.step("create and delete a game; a name is required", async () => {
        assert.equal((await admin.post("/api/game", { name: "  " })).status, 400);
        const created = await admin.post("/api/game", { name: "Test Game" });
        assert.equal(created.status, 201);
        assert.equal(created.json.supplier, "others");
        const del = await admin.request("DELETE", `/api/game/${created.json._id}`);
        assert.equal(del.status, 200, del.text);
        assert.equal((await admin.request("DELETE", `/api/game/${created.json._id}`)).status, 404);
        assert.equal((await admin.request("DELETE", "/api/game/not-a-uuid")).status, 404);
      });

      await t.step(
        "price sync picks up a supplier change; a failing supplier leaves prices",
        async () => {
          await simControl(server.url, "elitedias", "setCost", ["pubgm", "60 UC", "0.97"]);
          const r = await admin.post("/api/sync_prices/game/pubgm");
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.changed, 1);
          const pubg = (await games()).find((g) => g.supplierName === "pubgm")!;
          assert.equal(pubg.gameItems.find((i) => i.nameSupplier === "60 UC")!.cost, 0.97);
          await simControl(server.url, "elitedias", "setCost", ["pubgm", "60 UC", "1.11"]);
          await simControl(server.url, "elitedias", "failEndpoint", [
            "elitedias_api_denominations",
            "timeout",
          ]);
          const failed = await admin.post("/api/sync_prices/game/pubgm");
          assert.equal(failed.status, 502);
          const after = (await games()).find((g) => g.supplierName === "pubgm")!;
          assert.equal(
            after.gameItems.find((i) => i.nameSupplier === "60 UC")!.cost,
            0.97,
            "unchanged",
          );
          await simControl(server.url, "elitedias", "clearFaults");
          const mlbb = await admin.post("/api/sync_prices/mlbb");
          assert.equal(mlbb.status, 200);
          assert.equal(mlbb.json.game, "Mobile Legends");
        },
      );

      await t.step(
        "resellers get 403 from the admin catalogue routes; bad bodies get 400",
        async () => {
          for (
            const [m, p] of [
              ["GET", "/api/admin/games"],
              ["GET", "/api/available_games/ed"],
              ["POST", "/api/launch_game"],
              ["POST", "/api/sync_prices/mlbb"],
              ["GET", "/api/launched_games"],
            ]
          ) {
            assert.equal(
              (await reseller.request(m, p, m === "POST" ? {} : undefined)).status,
              403,
              p,
            );
          }
          assert.equal(
            (await admin.post("/api/product_detail/mg", { productID: "abc" })).status,
            400,
          );
          assert.equal((await admin.post("/api/denominations/ed", {})).status, 400);
          assert.equal((await admin.post("/api/launch_game", "{oops")).status, 400);
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    "[catalogue] the sync-prices CLI reports each game and each changed cost, from what to what",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    const cli = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "cli/main.ts", ...args],
        env: { ...tdb.env, TOPUP_INTERNAL_URL: server.url },
      }).output();
    try {
      if (tdb.backend === "pglite") {
        const busy = await cli(["sync-prices"]);
        assert.equal(busy.code, 1, "PGlite belongs to the running server");
        assert.match(new TextDecoder().decode(busy.stderr), /in use by another process/);
        return;
      }
      await simControl(server.url, "elitedias", "setCost", ["pubgm", "60 UC", "0.93"]);
      await simControl(server.url, "moogold", "failEndpoint", ["product/product_detail", "error"]);
      const run = await cli(["sync-prices"]);
      const out = new TextDecoder().decode(run.stdout);
      assert.equal(run.code, 1, "a failed game makes the exit code non-zero");
      assert.match(out, /ok +PUBG Mobile: 1 price\(s\) changed/);
      assert.match(
        out,
        /^ {10}60 UC: cost 0\.88 → 0\.93 \(\+0\.05 \+5\.7%\)$/m,
        "which, and by how much",
      );
      assert.match(out, /FAILED +Free Fire: supplier did not answer \(prices unchanged\)/);
      assert.match(out, /7 game\(s\) synced, 3 failed/);
      await simControl(server.url, "moogold", "clearFaults");
      const clean = await cli(["sync-prices", "--json"]);
      assert.equal(clean.code, 0);
      const reports = JSON.parse(new TextDecoder().decode(clean.stdout));
      assert.equal(reports.length, 7);
      assert.ok(reports.every((r: { ok: boolean }) => r.ok));
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
