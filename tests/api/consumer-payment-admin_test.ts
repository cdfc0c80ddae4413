import assert from "node:assert/strict";
import { createTestDatabase, withHandle } from "../helpers/backends.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInDemoAdmin } from "../helpers/sessions.ts";
import {
  consumerAt,
  hitpaySim,
  offerBankTransfer,
  paymentBody,
  paymentRequestOf,
  waitForStatus,
} from "../helpers/consumer-payments.ts";
import { computeConsumerPrice } from "../../src/domain/catalogue/pricing.ts";
import { centsToDollars } from "../../src/domain/money.ts";
import type { GameDto } from "../../src/shared/game-types.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const decoder = new TextDecoder();

/**
 * The body of a payment for the first consumer item of mlbb_special at its server price; the shop
 * takes bank transfers.
 */
async function mlbbPayment(server: TestServer) {
  const admin = await signInDemoAdmin(server.url);
  await offerBankTransfer(admin);
  const games = (await admin.get("/api/admin/games")).json as GameDto[];
  const special = games.find((g) => g.supplierName === "mlbb")!.packages
    .find((p) => p.name === "mlbb_special")!;
  const item = special.gameItems.find((i) => !i.isHiddenConsumer)!;
  const price = centsToDollars(
    computeConsumerPrice(item, { markupPercent: special.markupConsumer }),
  );
  return paymentBody(item.nameSupplier, price);
}

Deno.test({
  name: "[consumer payments] rate limit, manual payments confirmed by an admin, reconciliation",
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase();
    let server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    const cli = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "cli/main.ts", ...args],
        env: { ...tdb.env, TOPUP_INTERNAL_URL: server.url, USER: "ops-anna" },
      }).output();
    const orders: Record<string, string> = {};
    try {
      const body = await mlbbPayment(server);
      const buyer = consumerAt(server.url, "203.0.113.7");

      await t.step("payment calls are limited per client address with a JSON 429", async () => {
        const flooder = consumerAt(server.url, "203.0.113.66");
        for (let i = 0; i < 10; i++) {
          assert.equal((await flooder.post("/api/payment/hitpay/mlbb", {})).status, 400);
        }
        const limited = await flooder.post("/api/payment/hitpay/mlbb", body);
        assert.equal(limited.status, 429);
        assert.match(limited.json.error, /Too many requests/);
        assert.ok(Number(limited.headers.get("retry-after")) > 0);
        const other = await buyer.post("/api/payment/manual/mlbb", body);
        assert.equal(other.status, 201, "another address is not limited");
        orders.manual = other.json.orderID;
      });

      await t.step("a manual payment waits for an admin; no HitPay request is made", async () => {
        const r = await buyer.post("/api/payment/manual/mlbb", {
          ...body,
          consumer: { ...body.consumer, paymentMethod: "manual" },
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.json.paymentUrl, "/payment/success");
        orders.cancelled = r.json.orderID;
        const requests = await hitpaySim(server.url, "listRequests") as {
          reference_number: string;
        }[];
        assert.ok(!requests.some((q) => q.reference_number === orders.manual));
        assert.equal(
          (await buyer.get(`/api/order/${orders.manual}/status`)).json.status,
          "pending-customer-payment",
        );
      });

      await t.step(
        "a lost webhook: the status poll asks HitPay and the order is paid",
        async () => {
          await hitpaySim(server.url, "holdWebhooks", [true]);
          const r = await buyer.post("/api/payment/hitpay/mlbb", body);
          assert.equal(r.status, 201, r.text);
          orders.polled = r.json.orderID;
          await hitpaySim(server.url, "pay", [
            (await paymentRequestOf(server.url, r.json.orderID)).id,
          ]);
          const paid = ["payment-received-pending-disbursement", "successful"];
          assert.ok(paid.includes(await waitForStatus(buyer, orders.polled, paid)));
        },
      );

      if (tdb.backend === "postgres") {
        await t.step(
          "payments reconcile asks HitPay; the late webhook is then a replay",
          async () => {
            const r = await buyer.post("/api/payment/hitpay/mlbb", body);
            orders.reconciled = r.json.orderID;
            const request = await paymentRequestOf(server.url, orders.reconciled);
            await hitpaySim(server.url, "pay", [request.id]);
            const run = await cli(["payments", "reconcile", "--json"]);
            assert.equal(run.code, 0, decoder.decode(run.stderr));
            assert.deepEqual(JSON.parse(decoder.decode(run.stdout)), {
              checked: 1,
              paid: 1,
              expired: 0,
              failed: 0,
            });
            await hitpaySim(server.url, "holdWebhooks", [false]);
            await hitpaySim(server.url, "resendWebhook", [request.id]);
            const [delivery] = (await hitpaySim(server.url, "awaitWebhooks") as {
              reference_number: string;
              webhooks: { body: string; status: number }[];
            }[]).find((q) => q.reference_number === orders.reconciled)!.webhooks.slice(-1);
            assert.equal(delivery.status, 200);
            const events = await withHandle(
              tdb,
              (db) =>
                db.selectFrom("payment_events").select("outcome")
                  .where("order_id", "=", orders.reconciled).execute(),
            );
            assert.deepEqual(
              events,
              [{ outcome: "paid" }],
              "the webhook after reconciling is a replay",
            );
          },
        );
      }
    } finally {
      await server.stop();
    }

    // PGlite belongs to one process: the admin confirms while the app is down, as on one box.
    await t.step("an admin confirms one manual payment and cancels another, audited", async () => {
      const confirm = await cli(["orders", "confirm-payment", "--order", orders.manual, "--json"]);
      assert.equal(confirm.code, 0, decoder.decode(confirm.stderr));
      assert.equal(
        JSON.parse(decoder.decode(confirm.stdout)).status,
        "payment-received-pending-disbursement",
      );
      const again = await cli(["orders", "confirm-payment", "--order", orders.manual]);
      assert.equal(again.code, 1);
      assert.match(decoder.decode(again.stderr), /not awaiting payment/);
      const hitpayOrder = await cli(["orders", "confirm-payment", "--order", orders.polled]);
      assert.equal(hitpayOrder.code, 1, "a HitPay order is paid only by HitPay");
      const cancel = await cli([
        "orders",
        "confirm-payment",
        "--order",
        orders.cancelled,
        "--cancel",
      ]);
      assert.equal(cancel.code, 0, decoder.decode(cancel.stderr));
      await withHandle(tdb, async (db) => {
        const audit = await db.selectFrom("audit_log").select(["action", "actor_name", "target_id"])
          .where("target_type", "=", "order").orderBy("id").execute();
        assert.deepEqual(audit, [
          {
            action: "order.confirm_manual_payment",
            actor_name: "ops-anna",
            target_id: orders.manual,
          },
          {
            action: "order.cancel_manual_payment",
            actor_name: "ops-anna",
            target_id: orders.cancelled,
          },
        ]);
      });
    });

    server = await startTestServer(tdb, { TRUST_PROXY: "true" });
    try {
      await t.step("the confirmed order goes to the supplier and is delivered", async () => {
        const buyer = consumerAt(server.url, "203.0.113.8");
        assert.equal(
          await waitForStatus(buyer, orders.manual, ["successful", "error"]),
          "successful",
        );
        assert.equal(
          (await buyer.get(`/api/order/${orders.cancelled}/status`)).json.status,
          "cancelled",
        );
      });
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
