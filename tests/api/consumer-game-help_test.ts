// A game page helps a buyer before Verify: where to find the User ID (a sentence for every game,
// the supplier's note), an About text and an FAQ (the demo's games have their own), the FAQ as
// schema.org FAQPage data, and a meta description of its own rather than the tagline again.
import assert from "node:assert/strict";
import { createTestDatabase } from "../helpers/backends.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/client.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[consumer games] a game page says where to find the User ID, passes the supplier's note " +
    "on, has About and FAQ, and its FAQ as FAQPage data; its description is not the tagline",
  ...opts,
  async fn() {
    const tdb = await createTestDatabase();
    const server = await startTestServer(tdb);
    try {
      const html = (await new TestClient(server.url).get("/consumers/mobile-legends")).text;
      assert.ok(
        html.includes("Find your User ID and Server ID on your profile in Mobile Legends."),
        "the help under the User ID field is in the page before any script runs",
      );
      assert.match(html, /aria-describedby="userid-help"/);
      assert.ok(
        html.includes("Enter the User ID and Zone ID shown on your Mobile Legends profile page."),
        "EliteDias's note on the game is passed on",
      );
      assert.match(html, /<h2 id="about-title">About Mobile Legends<\/h2>/);
      assert.match(html, /<summary>Where do I find my Mobile Legends User ID\?<\/summary>/);
      assert.match(html, /<summary>What if I typed the wrong User ID\?<\/summary>/);

      const json = html.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)?.[1];
      assert.ok(json, "FAQPage structured data");
      const data = JSON.parse(json);
      assert.equal(data["@type"], "FAQPage");
      assert.equal(data.mainEntity[0].name, "Where do I find my Mobile Legends User ID?");
      assert.match(data.mainEntity[0].acceptedAnswer.text, /top-left corner/);

      const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "";
      assert.match(description, /^Top up Mobile Legends Diamonds from \$\d+\.\d\d\. /);
      assert.ok(!description.includes("Diamonds delivered in minutes"), "not the tagline");
    } finally {
      await server.stop();
      await tdb.drop();
    }
  },
});
