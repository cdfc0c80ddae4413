// The typed client example (examples/place-order.ts: openapi-fetch over the types
// generated from the OpenAPI document) places an order and follows it until it is delivered,
// against the test server and its supplier simulators.
// One backend (tests/run.ts runs this file on PostgreSQL when it can, else PGlite): the typed
// client example over HTTP; the API itself runs on both backends in reseller-api_test.ts.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { signInDemoReseller } from "../helpers/sessions.ts";
import { placeAndTrack } from "../../examples/place-order.ts";

Deno.test({
  name: "[reseller api client] the example places an order and tracks it to delivered",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const session = await signInDemoReseller(server.url);
      const key = (await session.post("/api/reseller/api_keys", { name: "example" })).json.secret;
      const order = await placeAndTrack(server.url, key, {
        game: "PUBG Mobile",
        userid: "5551234",
        pollMs: 100,
        maxPolls: 300,
      });
      assert.equal(order.status, "successful");
      assert.equal(order.userID, "5551234");
      assert.ok(order.supplierOrderID);
      await assert.rejects(
        placeAndTrack(server.url, key, { game: "PUBG Mobile", userid: "invalid1" }),
        /order: invalid_request: Invalid user/,
      );
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
