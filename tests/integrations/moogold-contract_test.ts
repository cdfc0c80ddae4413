// MooGold's documented answers (tests/fixtures/moogold/) read by the real client: what each call
// returns, and how each error is classified.

import assert from "node:assert/strict";
import { createMoogoldClient, type MoogoldClient } from "../../src/integrations/moogold/client.ts";
import type { SupplierResult } from "../../src/integrations/fetch-json.ts";
import { withRecordedAnswer } from "../helpers/recorded-answers.ts";

const API_PATH = "/wp-json/v1/api";

function moogoldAt(url: string): MoogoldClient {
  return createMoogoldClient({
    baseUrl: `${url}${API_PATH}/`,
    partnerId: "example_partner",
    secretKey: "example_secret",
    timeoutMs: 2_000,
  });
}

function valueOf<T>(result: SupplierResult<T>): T {
  if (!result.ok) assert.fail(`expected ok, got ${result.kind}: ${result.message}`);
  return result.value;
}

const ORDER_ITEM = {
  product: "Mobile Legends - 86 Diamonds",
  variationId: 4690783,
  quantity: 1,
  price: "1.55",
  playerId: "12314123",
  serverId: "3402",
};

Deno.test("[moogold contract] order_detail_partner_id without total is an order whose total is null", async () => {
  await withRecordedAnswer("moogold", "order-detail-partner-id", async ({ url, requests }) => {
    const order = valueOf(await moogoldAt(url).orderDetailByPartnerId("WF-ABC123"));
    assert.deepEqual(order, {
      orderId: 8412395,
      partnerOrderId: "WF-ABC123",
      status: "successful",
      supplierStatus: "completed",
      dateCreated: "2025-03-14 09:26:53.000000",
      total: null,
      items: [ORDER_ITEM],
    });
    assert.equal(requests[0].pathname, `${API_PATH}/order/order_detail_partner_id`);
    assert.deepEqual(JSON.parse(requests[0].body), {
      path: "order/order_detail_partner_id",
      partner_order_id: "WF-ABC123",
    });
  });
});
