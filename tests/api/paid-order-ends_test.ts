// Every paid order ends delivered or refunded, over HTTP against the server and its simulators:
// parallel admin Refunds of one order give one HitPay refund; a refund HitPay refuses waits in
// Needs review with HitPay's message; a payment that comes after HitPay said the request expired
// is refunded and never reaches a supplier; an item whose MooGold route refuses is delivered by its
// EliteDias route, once.
import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { SHORT_SUPPLIER_TIMEOUT, startTestServer } from "../helpers/server.ts";
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
import { seedDemoUsers } from "../../src/domain/auth/bootstrap.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import { REFUND_REFUSED_MESSAGE } from "../../src/integrations/hitpay/simulator.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { ReviewOrderDto } from "../../src/shared/order-types.ts";
import type { TestClient } from "../helpers/client.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** MooGold's product id of Genshin Impact in its simulator (external-apis.md §1). */
const GENSHIN_PRODUCT = "3689112";
const ED_TOPUP = "elitedias_reseller_topup_api";

interface Refund {
  payment_id: string;
  amount_refunded: number;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 150 && !done(value); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    value = await read();
  }
  return value;
}

Deno.test({
  name: "[paid orders] refunded once through HitPay, refused refunds reviewed, late payments " +
    "refunded, refused routes delivered by the next supplier",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    await withHandle(tdb, (db) => seedDemoUsers(db));
    const server = await startTestServer(tdb, { ...SHORT_SUPPLIER_TIMEOUT, TRUST_PROXY: "true" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const mlbb = games.find((g) => g.supplierName === "mlbb")!;
      const special = mlbb.packages.find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const priceCents = computeConsumerPrice(item, { markupPercent: special.markupConsumer });
      const price = centsToDollars(priceCents);
      let buyers = 0;
      /** A new buyer pays for the Mobile Legends item; the order number and HitPay's request. */
      const pay = async (buyer: TestClient) => {
        const r = await buyer.post(
          "/api/payment/hitpay/mlbb",
          paymentBody(item.nameSupplier, price),
        );
        assert.equal(r.status, 201, r.text);
        const request = await paymentRequestOf(server.url, r.json.orderID);
        return { orderId: r.json.orderID as string, requestId: request.id as string };
      };
      const newBuyer = () => consumerAt(server.url, `198.51.100.${++buyers}`);
      const refundsOf = async (requestId: string) => {
        const request = (await hitpaySim(server.url, "listRequests") as {
          id: string;
          payments: { id: string }[];
        }[]).find((q) => q.id === requestId)!;
        const paymentIds = request.payments.map((p) => p.id);
        return (await hitpaySim(server.url, "listRefunds") as Refund[])
          .filter((f) => paymentIds.includes(f.payment_id));
      };
      const queue = async () =>
        (await admin.get("/api/orders/review")).json.orders as ReviewOrderDto[];

      await t.step(
        "five admins' Refund of one order in review make one HitPay refund",
        async () => {
          const buyer = newBuyer();
          await simControl(server.url, "elitedias", "forceNext", ["timeout", 1, ED_TOPUP]);
          const { orderId, requestId } = await pay(buyer);
          await hitpaySim(server.url, "pay", [requestId]);
          const listed = await until(queue, (orders) => orders.some((o) => o.id === orderId));
          assert.ok(listed.some((o) => o.id === orderId), "the uncertain top-up waits in review");
          const answers = await Promise.all(
            Array.from(
              { length: 5 },
              () => admin.post(`/api/orders/${orderId}/review`, { action: "refund" }),
            ),
          );
          assert.deepEqual(
            answers.map((a) => a.status).sort(),
            [200, 409, 409, 409, 409],
            answers.map((a) => a.text).join("\n"),
          );
          assert.equal(await waitForStatus(buyer, orderId, ["refunded"]), "refunded");
          const refunds = await refundsOf(requestId);
          assert.equal(refunds.length, 1, "one refund at HitPay");
          assert.equal(
            Math.round(refunds[0].amount_refunded * 100),
            priceCents,
            "the whole payment",
          );
          const timeline = (await buyer.get(`/api/order/${orderId}/timeline`)).json as {
            entries: { kind: string; amount?: number }[];
          };
          assert.deepEqual(timeline.entries.at(-1)?.kind, "refunded");
          assert.equal(timeline.entries.at(-1)?.amount, price);
        },
      );

      await t.step(
        "a refund HitPay refuses waits in Needs review with HitPay's message",
        async () => {
          const buyer = newBuyer();
          await simControl(server.url, "elitedias", "rejectOrders");
          await hitpaySim(server.url, "forceNext", ["error", 1, "refund"]);
          try {
            const { orderId, requestId } = await pay(buyer);
            await hitpaySim(server.url, "pay", [requestId]);
            const listed = await until(queue, (orders) => orders.some((o) => o.id === orderId));
            const order = listed.find((o) => o.id === orderId);
            assert.ok(order, "the order waits for an operator");
            assert.equal(order.status, "error");
            assert.ok(
              order.reviewReason.includes(REFUND_REFUSED_MESSAGE),
              `HitPay's message in the reason: ${order.reviewReason}`,
            );
            assert.equal((await refundsOf(requestId)).length, 0, "nothing was refunded");
            const again = await admin.post(`/api/orders/${orderId}/review`, { action: "refund" });
            assert.equal(again.status, 200, again.text);
            assert.equal(await waitForStatus(buyer, orderId, ["refunded"]), "refunded");
            assert.equal((await refundsOf(requestId)).length, 1);
          } finally {
            await simControl(server.url, "elitedias", "acceptOrders");
          }
        },
      );

      await t.step(
        "a payment after HitPay said the request expired is refunded, never sent",
        async () => {
          const buyer = newBuyer();
          const { orderId, requestId } = await pay(buyer);
          // HitPay's word that the request expired unpaid (the shop's own cut-off moves it the same
          // way: tests/db/consumer-refunds_test.ts); then a payment comes anyway.
          const expired = await postWebhook(
            server.url,
            signedWebhook({
              payment_id: `expiry-${requestId}`,
              payment_request_id: requestId,
              reference_number: orderId,
              amount: price.toFixed(2),
              currency: "SGD",
              status: "expired",
            }),
          );
          assert.equal(expired.status, 200, JSON.stringify(expired.json));
          assert.equal(
            (await buyer.get(`/api/order/${orderId}/status`)).json.status,
            "payment-expired",
          );
          const topUpsBefore =
            (await simControl(server.url, "elitedias", "listOrders") as unknown[])
              .length;
          await hitpaySim(server.url, "pay", [requestId]);
          assert.equal(await waitForStatus(buyer, orderId, ["refunded"]), "refunded");
          assert.equal((await refundsOf(requestId)).length, 1);
          const topUps = await simControl(server.url, "elitedias", "listOrders") as unknown[];
          assert.equal(topUps.length, topUpsBefore, "no top-up was made for it");
        },
      );

      await t.step(
        "a MooGold refusal of a routed item is delivered by EliteDias, once",
        async () => {
          const detail =
            (await admin.post("/api/product_detail/mg", { productID: GENSHIN_PRODUCT })).json;
          const variations = detail.Variation as { variation_id: number; variation_name: string }[];
          const launched = await admin.post("/api/launch_game", {
            name: "Genshin Impact (MooGold)",
            supplier: "monkey",
            supplierName: detail.Product_Name,
            supplierGameID: GENSHIN_PRODUCT,
            gameItems: variations.map((v) => ({
              id: String(v.variation_id),
              nameSupplier: v.variation_name,
              nameReseller: v.variation_name,
            })),
            consumerMarkup: 10,
            resellerMarkupAll: 5,
            requiresServerID: true,
          });
          assert.equal(launched.status, 201, launched.text);
          const game = launched.json as GameDto;
          const crystals = game.gameItems.find((i) =>
            i.nameReseller === "Genshin Impact - 60 Genesis Crystals"
          )!;
          const routed = await admin.request("PUT", `/api/admin/games/${game._id}/routes`, {
            itemKey: crystals.id,
            routes: [{ supplier: "elephant", game: "genshin", item: "60 Genesis Crystals" }],
          });
          assert.equal(routed.status, 200, routed.text);

          const reseller = await signInDemoReseller(server.url);
          const catalogue = (await reseller.get(`/api/resellers/game/${game._id}`)).json as {
            gameItems: { key: string; name: string; price: number }[];
          };
          const offered = catalogue.gameItems.find((i) =>
            i.name === "Genshin Impact - 60 Genesis Crystals"
          )!;
          await simControl(server.url, "moogold", "rejectOrders");
          let orderId: string;
          try {
            const placed = await reseller.post("/api/create_order", {
              game: "Genshin Impact (MooGold)",
              productID: GENSHIN_PRODUCT,
              userid: "812345678",
              serverid: "os_asia",
              denom: offered.key,
              userName: "Traveler",
              itemName: offered.name,
              amount: offered.price,
              cost: 0,
            });
            assert.equal(placed.status, 201, placed.text);
            orderId = placed.json.order.id;
            const userId = (await reseller.get("/api/current_user")).json.user._id;
            const mine = async () =>
              ((await reseller.get(`/api/reseller/${userId}/orders`)).json as {
                id: string;
                status: string;
              }[]).find((o) => o.id === orderId)?.status;
            assert.equal(await until(mine, (s) => s === "successful"), "successful");
          } finally {
            await simControl(server.url, "moogold", "acceptOrders");
          }
          const atEliteDias = (await simControl(server.url, "elitedias", "countsByReference") as {
            reference: string;
            requests: number;
          }[]).filter((c) => c.reference === orderId);
          assert.deepEqual(atEliteDias.map((c) => c.requests), [1], "one EliteDias top-up request");
          const atMooGold = (await simControl(server.url, "moogold", "listOrders") as {
            partnerOrderId?: string;
          }[]).filter((o) => o.partnerOrderId === orderId);
          assert.equal(atMooGold.length, 0, "MooGold made nothing");
          const held = (await simControl(server.url, "elitedias", "listOrders") as {
            reference: string;
            game: string;
            denom: string;
          }[]).filter((o) => o.reference === orderId);
          assert.deepEqual(
            held.map((o) => [o.game, o.denom]),
            [["genshin", "60 Genesis Crystals"]],
            "EliteDias's item of the route",
          );
        },
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
