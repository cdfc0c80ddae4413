// Anyone may check out with any billing email, so a checkout must never change
// the details stored for a consumer already known by that email; each order keeps what its buyer
// typed.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import { NO_BANK_TRANSFER } from "../../src/domain/payments/consumer-checkout.ts";
import { consumerAt, offerBankTransfer, paymentBody } from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";
import type { ConsumerDto } from "../../src/shared/user-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[consumer records] a checkout with a known email never rewrites that consumer's details",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    try {
      const admin = await signInDemoAdmin(server.url);
      const games = (await admin.get("/api/admin/games")).json as GameDto[];
      const special = games.find((g) => g.supplierName === "mlbb")!.packages
        .find((p) => p.name === "mlbb_special")!;
      const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
      const price = centsToDollars(
        computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
      );
      const checkout = async (
        provider: string,
        ip: string,
        consumer: Record<string, string>,
      ) => {
        const base = paymentBody(item.nameSupplier, price);
        const r = await consumerAt(server.url, ip).post(`/api/payment/${provider}/mlbb`, {
          ...base,
          consumer: { ...base.consumer, ...consumer },
        });
        assert.equal(r.status, 201, r.text);
        return r.json.orderID as string;
      };

      // Bank transfer is offered only while Settings holds an account to pay into.
      const early = await consumerAt(server.url, "198.51.100.6").post(
        "/api/payment/manual/mlbb",
        paymentBody(item.nameSupplier, price),
      );
      assert.equal(early.status, 400, early.text);
      assert.equal(early.json.error, NO_BANK_TRANSFER);
      await offerBankTransfer(admin);
      const first = await checkout("manual", "198.51.100.7", {});
      const stranger = {
        firstName: "Mallory",
        lastName: "Stranger",
        phone: "+1 555 0100",
        email: "ANA@example.com",
        confirmEmail: "ANA@example.com",
      };
      const second = await checkout("manual", "203.0.113.9", stranger);
      const third = await checkout("hitpay", "203.0.113.9", { ...stranger, phone: "+1 555 0199" });

      const known = (await admin.get("/api/consumers?search=ana%40example.com")).json
        .consumers as ConsumerDto[];
      assert.deepEqual(
        known.map(({ name, email, phone }) => ({ name, email, phone })),
        [{ name: "Ana Buyer", email: "ana@example.com", phone: "+65 8123 4567" }],
        "the consumer keeps the details of their first checkout",
      );
      assert.equal((await admin.get("/api/consumers?search=Mallory")).json.total, 0);

      const orders = (await admin.get("/api/orders?buyerType=consumer")).json.orders as {
        id: string;
        consumer: { name: string; email: string; phone: string };
      }[];
      const buyerOf = (id: string) => orders.find((o) => o.id === id)?.consumer;
      assert.deepEqual(buyerOf(first), {
        name: "Ana Buyer",
        email: "ana@example.com",
        phone: "+65 8123 4567",
      });
      assert.deepEqual(buyerOf(second), {
        name: "Mallory Stranger",
        email: "ana@example.com",
        phone: "+1 555 0100",
      });
      assert.deepEqual(buyerOf(third), {
        name: "Mallory Stranger",
        email: "ana@example.com",
        phone: "+1 555 0199",
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
