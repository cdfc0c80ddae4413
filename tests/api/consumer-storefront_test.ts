import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import {
  consumerAt,
  offerBankTransfer,
  paymentBody,
  saveItemChanges,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars, centsToDollarString } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import { escapeHtml } from "../../src/shared/html.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

const itemCards = (html: string) => html.match(/class="item-card ct-item"/g)?.length ?? 0;

Deno.test({
  name: "[consumer storefront] pages, verify_id and the order lookup by number and email",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    try {
      const admin = await signInDemoAdmin(server.url);
      await offerBankTransfer(admin);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const mlbb = games.find((g) => g.supplierName === "mlbb")!;
      const standard = mlbb.packages.find((p) => p.name === "mlbb")!;
      const buyer = consumerAt(server.url, "198.51.100.20");

      await t.step("/consumers lists every demo game, linking its top-up page", async () => {
        const r = await buyer.get("/consumers");
        assert.equal(r.status, 200);
        assert.match(r.text, /href="\/consumers\/mobile-legends"/);
        assert.match(r.text, new RegExp(mlbb.tagline));
        for (const game of games) {
          assert.ok(r.text.includes(escapeHtml(game.name)), game.name);
        }
        assert.match(r.text, /href="\/consumers\/honkai-star-rail"/);
        assert.match(r.text, /href="\/consumers\/free-fire"/);
      });

      await t.step(
        "the top-up page's form and items are in the HTML, at consumer prices",
        async () => {
          const r = await buyer.get("/consumers/mobile-legends");
          assert.equal(r.status, 200);
          for (
            const part of ['name="userid"', 'name="serverid"', ">Verify<", "Proceed to Payment"]
          ) {
            assert.ok(r.text.includes(part), part);
          }
          const visible = standard.gameItems.filter((i) => !i.isHiddenConsumer);
          assert.equal(itemCards(r.text), visible.length);
          for (const item of visible) {
            const cents = computeConsumerPrice(item, { markupPercent: standard.markupConsumer });
            assert.ok(r.text.includes(centsToDollarString(cents)), item.nameSupplier);
          }
          assert.ok(!r.text.includes('"cost"'), "supplier costs never reach the browser");
          assert.match(r.text, /https:\/\/wa\.me\//);
          assert.match(r.text, /https:\/\/t\.me\//);
        },
      );

      await t.step(
        "a discounted item shows both prices; a hidden one is not on the page",
        async () => {
          const [hidden, discounted] = standard.gameItems;
          const afterHide = await saveItemChanges(admin, mlbb, "mlbb", hidden.nameSupplier, {
            isHiddenConsumer: true,
          });
          const change = { isDiscountedConsumer: true, discountRateConsumer: 3 };
          Object.assign(
            mlbb,
            await saveItemChanges(admin, afterHide, "mlbb", discounted.nameSupplier, change),
          );
          const r = await buyer.get("/consumers/mobile-legends");
          assert.equal(itemCards(r.text), standard.gameItems.length - 1);
          assert.ok(!r.text.includes(`"${hidden.nameSupplier}"`), "its key is not in the props");
          const markupPercent = standard.markupConsumer;
          const list = centsToDollarString(computeConsumerPrice(discounted, { markupPercent }));
          const sale = centsToDollarString(
            computeConsumerPrice({ ...discounted, ...change }, { markupPercent }),
          );
          assert.notEqual(list, sale);
          assert.ok(r.text.includes(`<s>${list}</s>`), `list price ${list} struck through`);
          assert.ok(r.text.includes(sale), `sale price ${sale}`);
          assert.match(r.text, />Sale</);
        },
      );

      let verifiedName = "";
      await t.step("verify_id answers the spec's fields and the server's package", async () => {
        const special = await buyer.post("/api/consumers/verify_id/mlbb", {
          userid: "22222222",
          serverid: "2222",
        });
        assert.equal(special.status, 200, special.text);
        assert.equal(special.json.mlbb_special, "valid");
        for (const key of ["mlbb_global", "name1", "name2", "error1", "error2", "region"]) {
          assert.ok(key in special.json, key);
        }
        assert.deepEqual(special.json.choice, { kind: "ok", package: "mlbb_special" });
        assert.equal(special.json.userName, special.json.name2, "the special check's name");
        verifiedName = special.json.userName;
        const invalid = await buyer.post("/api/consumers/verify_id/mlbb", {
          userid: "55555555",
          serverid: "5555",
        });
        assert.deepEqual(invalid.json.choice, { kind: "invalid" });
        const maintenance = await buyer.post("/api/consumers/verify_id/mlbb", {
          userid: "66666666",
          serverid: "6666",
        });
        assert.equal(maintenance.json.choice.kind, "out_of_stock");
        const empty = await buyer.post("/api/consumers/verify_id/mlbb", { userid: "1" });
        assert.equal(empty.status, 400);
        assert.match(empty.json.error, /serverid/);
      });

      await t.step("verify_id is limited per client address", async () => {
        const flooder = consumerAt(server.url, "198.51.100.66");
        for (let i = 0; i < 30; i++) {
          assert.equal((await flooder.post("/api/consumers/verify_id/mlbb", {})).status, 400);
        }
        const limited = await flooder.post("/api/consumers/verify_id/mlbb", {
          userid: "22222222",
          serverid: "2222",
        });
        assert.equal(limited.status, 429);
        assert.match(limited.json.error, /Too many requests/);
        const other = await consumerAt(server.url, "198.51.100.67").post(
          "/api/consumers/verify_id/mlbb",
          { userid: "22222222", serverid: "2222" },
        );
        assert.equal(other.status, 200, "another address is not limited");
      });

      await t.step(
        "an IPv6 client is limited per /64, however it rotates its address",
        async () => {
          for (let i = 1; i <= 30; i++) {
            const rotating = consumerAt(server.url, `2001:db8:77:1::${i.toString(16)}`);
            assert.equal((await rotating.post("/api/consumers/verify_id/mlbb", {})).status, 400);
          }
          const limited = await consumerAt(server.url, "2001:db8:77:1:ffff:1:2:3").post(
            "/api/consumers/verify_id/mlbb",
            { userid: "22222222", serverid: "2222" },
          );
          assert.equal(limited.status, 429, "another address of the same /64");
          const neighbour = await consumerAt(server.url, "2001:db8:77:2::1").post(
            "/api/consumers/verify_id/mlbb",
            { userid: "22222222", serverid: "2222" },
          );
          assert.equal(neighbour.status, 200, "the next /64 is someone else");
        },
      );

      const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const price = centsToDollars(
        computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
      );
      await t.step("the payment call runs the page's billing checks too", async () => {
        const body = paymentBody(item.nameSupplier, price);
        const cases: [Record<string, string>, string][] = [
          [{ firstName: " " }, "Please enter first name"],
          [{ email: "ana@example" }, "Please enter a valid email address"],
          [{ confirmEmail: "ana@example.org" }, "Email addresses do not match"],
          [{ paymentMethod: "cash" }, "Please select payment method"],
        ];
        for (const [change, message] of cases) {
          const r = await consumerAt(server.url, "198.51.100.30").post(
            "/api/payment/manual/mlbb",
            { ...body, consumer: { ...body.consumer, ...change } },
          );
          assert.equal(r.status, 400, r.text);
          assert.ok(r.json.error.includes(message), `${message} in ${r.json.error}`);
        }
      });

      const paid = await buyer.post(
        "/api/payment/manual/mlbb",
        paymentBody(item.nameSupplier, price),
      );
      assert.equal(paid.status, 201, paid.text);
      const orderID: string = paid.json.orderID;

      await t.step("the order is found by its number and the billing email only", async () => {
        const found = await buyer.post("/api/consumers/order", {
          orderID,
          email: " ANA@example.com ",
        });
        assert.equal(found.status, 200, found.text);
        assert.deepEqual(found.json, {
          orderID,
          gameName: "Mobile Legends",
          // The supplier's name for the account, not what the browser sent.
          userName: verifiedName,
          userid: "22222222",
          serverid: "2222",
          itemName: found.json.itemName,
          amount: price,
          status: "pending-customer-payment",
        });
        assert.match(found.json.itemName, /Diamonds|Pass/);
        const typedOnAPhone = await buyer.post("/api/consumers/order", {
          orderID: ` ${orderID.toLowerCase()} `,
          email: "ana@example.com",
        });
        assert.equal(typedOnAPhone.status, 200, "the number is found whatever its letters' case");
        assert.equal(typedOnAPhone.json.orderID, orderID);
        const wrongEmail = await buyer.post("/api/consumers/order", {
          orderID,
          email: "someone@example.com",
        });
        const unknown = await buyer.post("/api/consumers/order", {
          orderID: "C0000000000000000",
          email: "ana@example.com",
        });
        assert.equal(wrongEmail.status, 404);
        assert.equal(unknown.status, 404);
        assert.equal(wrongEmail.json.error, unknown.json.error, "no hint which part was wrong");
        assert.equal(
          wrongEmail.json.error,
          "No order matches this order number and email address.",
        );
        assert.equal((await buyer.post("/api/consumers/order", { orderID })).status, 400);
      });

      await t.step("order lookups are limited per client address", async () => {
        const guesser = consumerAt(server.url, "198.51.100.99");
        for (let i = 0; i < 20; i++) {
          const r = await guesser.post("/api/consumers/order", {
            orderID,
            email: `guess${i}@example.com`,
          });
          assert.equal(r.status, 404);
        }
        const limited = await guesser.post("/api/consumers/order", {
          orderID,
          email: "ana@example.com",
        });
        assert.equal(limited.status, 429, "even the right pair once the limit is passed");
      });

      await t.step("a hidden game is not listed and its page is not found", async () => {
        const put = await admin.request("PUT", `/api/game/${mlbb._id}`, {
          ...mlbb,
          isHidden: true,
        });
        assert.equal(put.status, 200, put.text);
        assert.doesNotMatch((await buyer.get("/consumers")).text, /mobile-legends/);
        assert.equal((await buyer.get("/consumers/mobile-legends")).status, 404);
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
