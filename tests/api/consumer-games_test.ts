// Consumers buy every game, not only Mobile Legends. One consumer order path for a
// generic EliteDias game with a server list (Genshin Impact) and a MooGold game (Free Fire): the
// server verifies the account with the game's supplier, prices the item, and a paid order goes to
// the right supplier once. Pages, meta tags, sitemap and robots; a game hidden from consumers.
import assert from "node:assert/strict";
import { rawRequest } from "../helpers/raw-http.ts";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin, signInDemoReseller, simControl } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  paymentBody,
  paymentRequestOf,
  postWebhook,
  signedWebhook,
  waitForStatus,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** The value of `<meta {attr}="{key}" content="…">` or `<link rel="{key}" href="…">` in `html`. */
function headValue(html: string, attr: "name" | "property" | "rel", key: string): string {
  const value = attr === "rel" ? "href" : "content";
  const tag = html.match(new RegExp(`<(?:meta|link)[^>]*${attr}="${key}"[^>]*>`))?.[0] ?? "";
  return tag.match(new RegExp(`${value}="([^"]*)"`))?.[1] ?? "";
}

Deno.test({
  name: "[consumer games] every game's page, verify and checkout on the one consumer path",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, {
      TRUST_PROXY: "true",
      SIM_ELITEDIAS_COMPLETE_AFTER_MS: "0",
      SIM_MOOGOLD_COMPLETE_AFTER_MS: "0",
    });
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const genshin = games.find((g) => g.supplierName === "genshin")!;
      const freeFire = games.find((g) => g.supplier === "monkey" && g.name === "Free Fire")!;
      const buyer = consumerAt(server.url, "198.51.100.40");
      const priceOf = (game: GameDto, denom: string) =>
        centsToDollars(
          computeConsumerPrice(game.gameItems.find((i) => i.nameSupplier === denom)!, {
            markupPercent: game.consumerMarkup,
          }),
        );
      const genshinItem = genshin.gameItems.find((i) => !i.isHiddenConsumer)!;
      const genshinPrice = priceOf(genshin, genshinItem.nameSupplier);
      const account = { userid: "700123456", serverid: "os_asia" };
      const genshinBody = (overrides: Record<string, unknown> = {}) =>
        paymentBody(genshinItem.nameSupplier, genshinPrice, {
          game: genshin.name,
          ...account,
          package: undefined,
          ...overrides,
        });

      await t.step(
        "a game page has its form, its servers and its items at consumer prices",
        async () => {
          const r = await buyer.get("/consumers/genshin-impact");
          assert.equal(r.status, 200, r.text);
          assert.ok(r.text.includes('name="userid"'));
          assert.match(r.text, /<select[^>]*name="serverid"/, "the server is a dropdown");
          for (const [label, value] of Object.entries(genshin.servers)) {
            assert.ok(r.text.includes(`value="${value}"`) && r.text.includes(label), label);
          }
          for (const item of genshin.gameItems.filter((i) => !i.isHiddenConsumer)) {
            const price = priceOf(genshin, item.nameSupplier).toFixed(2);
            assert.ok(r.text.includes(`$${price}`), `${item.nameSupplier} at $${price}`);
          }
          assert.ok(!r.text.includes('"cost"'), "supplier costs never reach the browser");
          assert.equal((await buyer.get("/consumers/no-such-game")).status, 404);
        },
      );

      await t.step(
        "each game page has its own title, description and Open Graph; without PUBLIC_URL no " +
          "visitor's Host is baked into the cached pages",
        async () => {
          // The first visitor names a Host of its own: the cached page must not keep it.
          const first = await rawRequest(server.url, "GET", "/consumers/free-fire", {
            host: "evil.example",
          });
          assert.equal(first.status, 200);
          assert.ok(!first.body.includes("evil.example"));
          const page = (await buyer.get("/consumers/free-fire")).text;
          assert.match(page, /<title>Free Fire top-up \| TopUp<\/title>/);
          const description = headValue(page, "name", "description");
          assert.ok(description.includes("Free Fire"), description);
          assert.ok(description.length <= 160);
          assert.equal(headValue(page, "property", "og:title"), "Free Fire top-up | TopUp");
          assert.equal(headValue(page, "property", "og:description"), description);
          for (const [attribute, value] of [["rel", "canonical"], ["property", "og:url"]]) {
            assert.ok(
              !page.includes(`${attribute}="${value}"`),
              `${value} needs PUBLIC_URL (production_test)`,
            );
          }
          assert.ok(!page.includes(server.url), "no absolute address of this server");
          const other = (await buyer.get("/consumers/genshin-impact")).text;
          assert.notEqual(headValue(other, "name", "description"), description);
          const landing = (await buyer.get("/consumers")).text;
          assert.ok(headValue(landing, "name", "description"));
          assert.ok(!landing.includes('rel="canonical"'));
        },
      );

      await t.step(
        "About, FAQ, platforms, instructions and links show once the admin fills them",
        async () => {
          const before = (await buyer.get("/consumers/free-fire")).text;
          assert.ok(!before.includes("How fast is delivery?"));
          assert.ok(!before.includes("<summary>Where do I find my User ID?</summary>"), "no image");
          const put = await admin.request("PUT", `/api/game/${freeFire._id}`, {
            ...freeFire,
            aboutThisGame: "A battle royale for phones.",
            faq: [{ question: "How fast is delivery?", answer: "Usually within minutes." }],
            platforms: ["Android", "iOS"],
            instructionalImage: "/games/free-fire.svg",
            fandomLink: "https://freefire.fandom.com/",
            links: {
              ...freeFire.links,
              generalGuideLinks: [{ name: "Starter guide", link: "https://example.com/guide" }],
            },
          });
          assert.equal(put.status, 200, put.text);
          Object.assign(freeFire, put.json);
          const page = (await buyer.get("/consumers/free-fire")).text;
          for (
            const part of [
              "About Free Fire",
              "A battle royale for phones.",
              "<summary>How fast is delivery?</summary>",
              "Usually within minutes.",
              "<summary>Where do I find my User ID?</summary>",
              'src="/games/free-fire.svg" alt="Where to find your Free Fire account ID"',
              "<li>Android</li>",
              'href="https://freefire.fandom.com/"',
              'href="https://example.com/guide"',
            ]
          ) assert.ok(page.includes(part), part);
        },
      );

      await t.step(
        "verify names the account; an unknown account or a wrong server is refused",
        async () => {
          const ok = await buyer.post("/api/consumers/verify_id/genshin-impact", account);
          assert.equal(ok.status, 200, ok.text);
          assert.deepEqual(ok.json.choice, { kind: "ok" });
          assert.ok(ok.json.userName.length > 0);
          const invalid = await buyer.post("/api/consumers/verify_id/genshin-impact", {
            ...account,
            userid: "invalid-1",
          });
          assert.deepEqual(invalid.json, {
            choice: { kind: "invalid" },
            userName: "",
            bankTransfer: false,
          });
          const noServer = await buyer.post("/api/consumers/verify_id/genshin-impact", {
            userid: account.userid,
          });
          assert.equal(noServer.status, 400);
          assert.match(noServer.json.error, /Server ID is required/);
          const otherServer = await buyer.post(
            "/api/consumers/verify_id/genshin-impact",
            {
              ...account,
              serverid: "os_mars",
            },
          );
          assert.equal(otherServer.status, 400);
          assert.match(otherServer.json.error, /choose a server from the list/);
          const moogold = await buyer.post("/api/consumers/verify_id/free-fire", {
            userid: "812345",
          });
          assert.equal(moogold.status, 200, moogold.text);
          assert.equal(moogold.json.choice.kind, "ok");
        },
      );

      await t.step(
        "a tampered amount or item is refused; an unverifiable account never reaches HitPay",
        async () => {
          const count = async () =>
            (await hitpaySim(server.url, "listRequests") as unknown[]).length;
          const before = await count();
          const cheap = await buyer.post(
            "/api/payment/hitpay/genshin-impact",
            genshinBody({ amount: 0.01 }),
          );
          assert.equal(cheap.status, 409, cheap.text);
          assert.match(cheap.json.error, /price of this item is now \$/);
          const unknownItem = await buyer.post(
            "/api/payment/hitpay/genshin-impact",
            genshinBody({ denom: "999999 Genesis Crystals" }),
          );
          assert.equal(unknownItem.status, 404, unknownItem.text);
          const otherGamesItem = await buyer.post(
            "/api/payment/hitpay/free-fire",
            genshinBody({ userid: "812345", serverid: "" }),
          );
          assert.equal(otherGamesItem.status, 404, "an item of another game is not this game's");
          const invalid = await buyer.post(
            "/api/payment/hitpay/genshin-impact",
            genshinBody({ userid: "invalid-2" }),
          );
          assert.equal(invalid.status, 400, invalid.text);
          assert.equal(invalid.json.error, "Invalid user");
          const noServer = await buyer.post(
            "/api/payment/hitpay/genshin-impact",
            genshinBody({ serverid: "" }),
          );
          assert.equal(noServer.status, 400, noServer.text);
          assert.equal(await count(), before, "no payment request for a refused checkout");
        },
      );

      for (
        const [label, game, path, body, supplier] of [
          [
            "EliteDias",
            genshin,
            "genshin-impact",
            genshinBody(),
            "elitedias",
          ],
          [
            "MooGold",
            freeFire,
            "free-fire",
            paymentBody(
              freeFire.gameItems[0].nameSupplier,
              priceOf(freeFire, freeFire.gameItems[0].nameSupplier),
              {
                game: freeFire.name,
                userid: "812345",
                serverid: "",
                package: undefined,
              },
            ),
            "moogold",
          ],
        ] as const
      ) {
        await t.step(
          `${label}: HitPay asks the server's price; a paid order goes to ${label} once`,
          async () => {
            const r = await buyer.post(`/api/payment/hitpay/${path}`, body);
            assert.equal(r.status, 201, r.text);
            const orderId: string = r.json.orderID;
            const request = await paymentRequestOf(server.url, orderId);
            assert.equal(request.amount, body.amount.toFixed(2));
            const webhook = signedWebhook({
              payment_id: `pay-${orderId}`,
              payment_request_id: request.id,
              reference_number: orderId,
              phone: "",
              amount: body.amount.toFixed(2),
              currency: "SGD",
              status: "completed",
            });
            const answers = await Promise.all(
              Array.from({ length: 20 }, () => postWebhook(server.url, webhook)),
            );
            assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers[0]));
            assert.equal(answers.filter((a) => a.json.duplicate === false).length, 1);
            assert.equal(
              await waitForStatus(buyer, orderId, ["successful", "error"]),
              "successful",
            );
            const sent = (await simControl(server.url, supplier, "listOrders") as {
              reference?: string;
              partnerOrderId?: string | null;
            }[]).filter((o) => (o.reference ?? o.partnerOrderId) === orderId);
            assert.equal(sent.length, 1, `one ${label} order`);
            const listed =
              (await admin.get(`/api/orders?buyerType=consumer&search=${orderId}`)).json;
            const order = listed.orders.find((o: { id: string }) => o.id === orderId);
            assert.equal(order?.game, game.name);
            assert.equal(order?.amount, body.amount);
          },
        );

        await t.step(`${label}: a cancelled payment is tried again as a new order`, async () => {
          const retrier = consumerAt(server.url, `198.51.100.${label === "MooGold" ? 71 : 72}`);
          const r = await retrier.post(`/api/payment/hitpay/${path}`, body);
          assert.equal(r.status, 201, r.text);
          const orderId: string = r.json.orderID;
          const request = await paymentRequestOf(server.url, orderId);
          const cancelled = await retrier.post(`/api/order/${orderId}/cancel-payment`, {
            reference: request.id,
          });
          assert.equal(cancelled.json.status, "payment-cancelled", cancelled.text);
          const again = await retrier.post(`/api/order/${orderId}/try-again`, {});
          assert.equal(again.status, 201, again.text);
          assert.notEqual(again.json.orderID, orderId);
          const retried = await paymentRequestOf(server.url, again.json.orderID);
          assert.equal(retried.amount, body.amount.toFixed(2), "the same purchase and price");
        });
      }

      await t.step("an out-of-stock game stays listed, marked, and sells nothing", async () => {
        const valorant = games.find((g) => g.name === "Valorant")!;
        const put = await admin.request("PUT", `/api/game/${valorant._id}`, {
          ...valorant,
          isOutOfStock: true,
        });
        assert.equal(put.status, 200, put.text);
        const landing = (await buyer.get("/consumers")).text;
        const tile = landing.slice(landing.indexOf('href="/consumers/valorant"'));
        assert.match(tile.slice(0, tile.indexOf("</a>")), /Out of stock/);
        const verify = await buyer.post("/api/consumers/verify_id/valorant", { userid: "812345" });
        assert.deepEqual(verify.json.choice, { kind: "out_of_stock" });
        const item = valorant.gameItems[0];
        const pay = await buyer.post(
          "/api/payment/hitpay/valorant",
          paymentBody(item.nameSupplier, priceOf(valorant, item.nameSupplier), {
            userid: "812345",
            serverid: "",
            package: undefined,
          }),
        );
        assert.equal(pay.status, 409, pay.text);
        assert.equal(
          pay.json.error,
          "Items for Valorant are currently Out of Stock / Under Maintenance.",
        );
      });

      await t.step("a game hidden from consumers is 404 to them, listed to resellers", async () => {
        const put = await admin.request("PUT", `/api/game/${freeFire._id}`, {
          ...freeFire,
          isHiddenConsumer: true,
        });
        assert.equal(put.status, 200, put.text);
        assert.equal((await buyer.get("/consumers/free-fire")).status, 404);
        assert.ok(!(await buyer.get("/consumers")).text.includes('href="/consumers/free-fire"'));
        assert.equal(
          (await buyer.post("/api/consumers/verify_id/free-fire", { userid: "812345" })).status,
          404,
        );
        const pay = await buyer.post(
          "/api/payment/manual/free-fire",
          paymentBody(
            freeFire.gameItems[0].nameSupplier,
            priceOf(freeFire, freeFire.gameItems[0].nameSupplier),
            { userid: "812345", serverid: "", package: undefined },
          ),
        );
        assert.equal(pay.status, 404);
        const reseller = await signInDemoReseller(server.url);
        const resellerGames = (await reseller.get("/api/reseller/games")).json as {
          name: string;
        }[];
        assert.ok(resellerGames.some((g) => g.name === "Free Fire"), "resellers keep buying it");
        const preview = await admin.get("/admin/preview/free-fire");
        assert.equal(preview.status, 200);
        assert.match(preview.text, /hidden from consumers/);
        assert.match(preview.text, /<meta name="robots" content="noindex"/);
        assert.notEqual((await buyer.get("/admin/preview/free-fire")).status, 200);
      });

      await t.step(
        "/sitemap.xml lists the landing page and every game consumers can buy",
        async () => {
          const r = await buyer.get("/sitemap.xml");
          assert.equal(r.status, 200);
          assert.match(r.headers.get("content-type") ?? "", /xml/);
          const locs = [...r.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
          assert.ok(locs.includes(`${server.url}/consumers`));
          assert.ok(locs.includes(`${server.url}/consumers/mobile-legends`));
          assert.ok(locs.includes(`${server.url}/consumers/genshin-impact`));
          assert.ok(!locs.some((l) => l.endsWith("/free-fire")), "a hidden game is not listed");
          assert.equal(
            locs.length,
            games.length,
            "every demo game but the hidden one, and /consumers",
          );
          const robots = await buyer.get("/robots.txt");
          for (const path of ["/admin", "/resellers", "/api"]) {
            assert.ok(robots.text.split("\n").includes(`Disallow: ${path}`), path);
          }
          assert.ok(robots.text.includes(`Sitemap: ${server.url}/sitemap.xml`));
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
