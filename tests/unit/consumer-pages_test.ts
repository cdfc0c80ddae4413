// Issue 22: a game's consumer page address and meta description, and which paths the page cache
// may answer for every visitor alike.
import assert from "node:assert/strict";
import { consumerPageDescription, consumerPageSlug } from "../../src/shared/consumer-storefront.ts";
import { isConsumerStorefrontPath } from "../../src/domain/catalogue/consumer-catalogue.ts";

const slug = (name: string, supplierName = "x", id = "1F3A") =>
  consumerPageSlug({ id, name, supplierName });

Deno.test("consumer page slug: lowercase words joined by hyphens, Mobile Legends fixed", () => {
  assert.equal(slug("Honkai: Star Rail"), "honkai-star-rail");
  assert.equal(slug("Genshin Impact (EliteDias)"), "genshin-impact-elitedias");
  assert.equal(slug("  PUBG   Mobile!! "), "pubg-mobile");
  assert.equal(slug("Pokémon Unite"), "pokemon-unite", "accents dropped");
  assert.equal(slug("Mobile Legends: Bang Bang", "mlbb"), "mobile-legends", "the spec's page");
  assert.equal(slug("原神", "x", "1F3A"), "1f3a", "no latin letters: the game's id");
  assert.equal(slug("Order"), "order-top-up", "/consumers/order is the order lookup");
});

Deno.test("no game's page takes a policy page's address", () => {
  assert.equal(slug("Terms"), "terms-top-up");
  assert.equal(slug("PRIVACY!"), "privacy-top-up");
  assert.equal(slug("Refunds"), "refunds-top-up");
  assert.equal(slug("Terms of Battle"), "terms-of-battle", "only the exact address is taken");
});

Deno.test("consumer page description: the admin's, else made of name and tagline, ≤ 160", () => {
  assert.equal(
    consumerPageDescription({ name: "Free Fire", tagline: "Diamonds fast", description: " " }),
    "Top up Free Fire in seconds. Diamonds fast. Verify your account, pick an item and pay securely.",
  );
  assert.equal(
    consumerPageDescription({ name: "X", tagline: "t", description: "Our\n own  words." }),
    "Our own words.",
  );
  const long = consumerPageDescription({
    name: "X",
    tagline: "",
    description: "word ".repeat(60),
  });
  assert.ok(long.length <= 160, `${long.length}`);
  assert.ok(long.endsWith("word…"), long);
});

Deno.test("the page cache answers /consumers and game pages, never the order lookup", () => {
  for (
    const path of [
      "/consumers",
      "/consumers/mobile-legends",
      "/consumers/honkai-star-rail",
      "/consumers/terms",
    ]
  ) {
    assert.ok(isConsumerStorefrontPath(path), path);
  }
  for (
    const path of [
      "/consumers/order",
      "/consumers/",
      "/consumers/a/b",
      "/consumers/Mobile-Legends",
      "/payment/success",
      "/admin/preview/free-fire",
    ]
  ) assert.ok(!isConsumerStorefrontPath(path), path);
});
