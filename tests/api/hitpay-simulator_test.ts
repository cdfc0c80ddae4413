// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): the HitPay
// simulator's wire and its client, no database in between.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { HITPAY_SIMULATOR_CREDENTIALS } from "../../src/config.ts";
import { createHitPayClient } from "../../src/integrations/hitpay/client.ts";
import { verifyHitPayWebhook } from "../../src/integrations/hitpay/webhook.ts";
import { startSimulatorServer } from "../../src/integrations/simulator-kit.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Pulls a lever of the HitPay simulator mounted on the test server. */
async function hitpay(base: string, action: string, args: unknown[] = []) {
  const r = await fetch(new URL("/__sim/control", base), {
    method: "POST",
    body: JSON.stringify({ target: "hitpay", action, args }),
  });
  return { status: r.status, json: await r.json() };
}

Deno.test({
  name: "[hitpay sim] mounted on the app: create, pay by lever, signed webhook, faults",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb, { SEED_DEMO_CATALOGUE: "false" });
    const received: string[] = [];
    const shop = startSimulatorServer(async (request) => {
      received.push(await request.text());
      return new Response("ok");
    });
    try {
      const client = createHitPayClient({
        baseUrl: `${server.url}/__sim/hitpay/v1`,
        apiKey: HITPAY_SIMULATOR_CREDENTIALS.apiKey,
        timeoutMs: 2_000,
      });
      const created = await client.createPaymentRequest({
        amountCents: 1250,
        currency: "SGD",
        referenceNumber: "order-api-1",
        redirectUrl: `${shop.url}/payment/success`,
        webhookUrl: `${shop.url}/api/payment/hitpay/webhook`,
        paymentMethods: ["paynow_online"],
      });
      assert.ok(created.url.startsWith(`${server.url}/__sim/hitpay/`), created.url);
      assert.equal((await fetch(created.url)).status, 200);

      const paid = await hitpay(server.url, "pay", [created.id]);
      assert.equal(paid.status, 200);
      assert.equal(paid.json.result.status, "completed");
      assert.equal(paid.json.result.payments[0].status, "succeeded");
      const [listed] = (await hitpay(server.url, "awaitWebhooks")).json.result;
      assert.equal(listed.webhooks[0].status, 200);
      assert.equal(received.length, 1);
      const event = verifyHitPayWebhook(
        received[0],
        new Headers(),
        HITPAY_SIMULATOR_CREDENTIALS.salt,
      );
      assert.ok(event?.kind === "payment");
      assert.equal(event.referenceNumber, "order-api-1");
      assert.equal(event.amountCents, 1250);
      assert.equal(event.status, "completed");

      const again = await hitpay(server.url, "pay", [created.id]);
      assert.equal(again.status, 400);
      assert.match(again.json.error, /not pending/);

      assert.equal((await hitpay(server.url, "forceNext", ["error"])).status, 200);
      await assert.rejects(client.getPaymentRequest(created.id), /Server Error/);
      assert.equal((await client.getPaymentRequest(created.id)).status, "completed");
    } finally {
      await shop.close();
      await server.stop();
      await tdb.drop();
    }
  },
});
