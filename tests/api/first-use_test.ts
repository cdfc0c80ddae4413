import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { SHORT_SUPPLIER_TIMEOUT, startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin, signInDemoReseller } from "../helpers/sessions.ts";
import { ELITEDIAS_CATALOGUE } from "../../src/integrations/elitedias/catalogue.ts";
import { MOOGOLD_CATALOGUE } from "../../src/integrations/moogold/catalogue.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

// What a first-time user trips over, over HTTP: server lists from the suppliers, unlisted empty games, error pages, favicon.

const GENSHIN_ED = ELITEDIAS_CATALOGUE.find((g) => g.code === "genshin")!;
const GENSHIN_MG = MOOGOLD_CATALOGUE.find((p) => p.id === 3689112)!;
const RAGNAROK = MOOGOLD_CATALOGUE.find((p) => p.id === 5177311)!;

Deno.test({
  name: "[first use] games get their supplier's servers; empty games are unlisted; 404 is branded",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const admin = await signInDemoAdmin(server.url);
      const reseller = await signInDemoReseller(server.url);
      const games = async () => (await admin.get("/api/admin/games")).json as GameDto[];

      await t.step("the demo seeds each game's server list from its supplier", async () => {
        const bySupplierName = new Map((await games()).map((g) => [g.supplierName, g]));
        assert.deepEqual(bySupplierName.get("genshin")!.servers, GENSHIN_ED.servers);
        assert.deepEqual(bySupplierName.get(RAGNAROK.name)!.servers, RAGNAROK.serverList);
        assert.deepEqual(bySupplierName.get("pubgm")!.servers, {});
        const grid = (await reseller.get("/api/reseller/games")).json as GameDto[];
        const genshin = grid.find((g) => g.supplierName === "genshin")!;
        assert.equal(genshin.requiresServerID, true);
        assert.deepEqual(genshin.servers, GENSHIN_ED.servers);
      });

      await t.step("a launch that sends no servers stores the supplier's list", async () => {
        const r = await admin.post("/api/launch_game", {
          name: "Genshin Impact (MooGold)",
          supplier: "monkey",
          supplierName: GENSHIN_MG.name,
          supplierGameID: String(GENSHIN_MG.id),
          consumerMarkup: 8.8,
          resellerMarkupAll: 5,
          servers: {},
        });
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.json.servers, GENSHIN_MG.serverList);
        assert.equal(r.json.requiresServerID, true);
      });

      await t.step("price sync fills a server list the game lost", async () => {
        const genshin = (await games()).find((g) => g.supplierName === "genshin")!;
        const saved = await admin.request("PUT", `/api/game/${genshin._id}`, {
          ...genshin,
          servers: {},
        });
        assert.equal(saved.status, 200, saved.text);
        assert.deepEqual(saved.json.servers, {});
        const sync = await admin.post("/api/sync_prices/game/genshin");
        assert.equal(sync.status, 200, sync.text);
        assert.equal(sync.json.serversUpdated, true);
        const after = (await games()).find((g) => g._id === genshin._id)!;
        assert.deepEqual(after.servers, GENSHIN_ED.servers);
        const again = await admin.post("/api/sync_prices/game/genshin");
        assert.equal(again.json.serversUpdated, false, "an unchanged list is not rewritten");
      });

      await t.step(
        "a MooGold account with a character name verifies on a listed server",
        async () => {
          const [server1] = Object.values(RAGNAROK.serverList as Record<string, string>);
          const body = { game: RAGNAROK.id, userid: "80012345", serverid: server1 };
          const without = await reseller.post("/api/product_validate", body);
          assert.equal(without.json.status, "false");
          const ok = await reseller.post("/api/product_validate", {
            ...body,
            characterName: "Poring",
          });
          assert.equal(ok.status, 200, ok.text);
          assert.equal(ok.json.status, "true");
          const wrongServer = await reseller.post("/api/product_validate", {
            ...body,
            serverid: "SEA - Prontera",
            characterName: "Poring",
          });
          assert.equal(wrongServer.json.status, "false", "the label is not the server's value");
        },
      );

      await t.step("a game with nothing to buy is not in the reseller grid", async () => {
        const created = await admin.post("/api/game", { name: "Empty Game" });
        assert.equal(created.status, 201);
        const names = async () =>
          ((await reseller.get("/api/reseller/games")).json as GameDto[]).map((g) => g.name);
        assert.ok(!(await names()).includes("Empty Game"));

        // Items every reseller is kept from do not make it purchasable either.
        const pubg = (await games()).find((g) => g.supplierName === "pubgm")!;
        const item = { ...pubg.gameItems[0], isHiddenReseller: true };
        const saved = await admin.request("PUT", `/api/game/${created.json._id}`, {
          ...created.json,
          gameItems: [item],
        });
        assert.equal(saved.status, 200, saved.text);
        assert.ok(!(await names()).includes("Empty Game"));
        const shown = await admin.request("PUT", `/api/game/${created.json._id}`, {
          ...saved.json,
          gameItems: [{ ...item, isHiddenReseller: false }],
        });
        assert.equal(shown.status, 200, shown.text);
        assert.ok((await names()).includes("Empty Game"));
      });

      await t.step("unknown pages get the branded 404 and the favicon exists", async () => {
        const page = await fetch(new URL("/no/such/page", server.url));
        assert.equal(page.status, 404);
        assert.match(page.headers.get("content-type") ?? "", /text\/html/);
        const html = await page.text();
        assert.match(html, /Page not found/);
        assert.match(html, /href="\/consumers"/);
        assert.doesNotMatch(html, /astro/i);
        const api = await fetch(new URL("/api/no/such/route", server.url));
        assert.equal(api.status, 404);
        assert.deepEqual(await api.json(), { error: "Not found" });
        const icon = await fetch(new URL("/favicon.svg", server.url));
        assert.equal(icon.status, 200);
        assert.match(await icon.text(), /^<svg/);
        const tile = await fetch(new URL("/games/genshin.svg", server.url));
        assert.equal(tile.status, 200);
        assert.equal(tile.headers.get("content-type"), "image/svg+xml");
        await tile.body?.cancel();
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});

Deno.test({
  name: "[first use] the demo starts and seeds its catalogue when the simulators answer slowly",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    // Every EliteDias answer takes longer than SUPPLIER_TIMEOUT_MS (1000 ms): a busy machine at
    // start-up. The seed waits; orders would still time out at 1000 ms.
    const server = await startTestServer(tdb, {
      ...SHORT_SUPPLIER_TIMEOUT,
      SIM_ELITEDIAS_LATENCY_MS: "1100",
    });
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      assert.equal(games.length, 7, games.map((g) => g.name).join(", "));
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
